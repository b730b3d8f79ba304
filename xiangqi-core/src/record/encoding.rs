//! The text encodings of game records: UTF-8 (the default when writing), GBK/GB18030 (most Chinese PGN files),
//! and UTF-16 with a byte-order mark. Decoding and encoding are encoding_rs's.

use std::fmt;

/// A text encoding of a record file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextEncoding {
    /// UTF-8, with or without a byte-order mark.
    Utf8,
    /// GBK, read as GB18030 (its superset), written as GBK.
    Gbk,
    /// UTF-16 little-endian (read only, recognised by its byte-order mark).
    Utf16Le,
    /// UTF-16 big-endian (read only, recognised by its byte-order mark).
    Utf16Be,
}

impl fmt::Display for TextEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TextEncoding::Utf8 => "UTF-8",
            TextEncoding::Gbk => "GBK",
            TextEncoding::Utf16Le => "UTF-16LE",
            TextEncoding::Utf16Be => "UTF-16BE",
        })
    }
}

impl std::str::FromStr for TextEncoding {
    type Err = String;
    /// `utf8`/`utf-8`, `gbk`/`gb18030`/`gb2312`, in any case.
    fn from_str(s: &str) -> Result<TextEncoding, String> {
        match s.to_ascii_lowercase().as_str() {
            "utf8" | "utf-8" => Ok(TextEncoding::Utf8),
            "gbk" | "gb18030" | "gb2312" | "cp936" => Ok(TextEncoding::Gbk),
            _ => Err(format!("unknown encoding {s:?}: expected utf8 or gbk")),
        }
    }
}

/// Text decoded from a file, with the encoding it was found to be in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// The text (a byte-order mark removed).
    pub text: String,
    /// The encoding detected.
    pub encoding: TextEncoding,
    /// Whether some bytes were not valid in that encoding (each became U+FFFD).
    pub had_errors: bool,
}

/// Decodes a file's bytes: a byte-order mark decides (UTF-8, UTF-16LE/BE); otherwise text that is valid UTF-8 is
/// UTF-8, and anything else is read as GB18030 (GBK's superset, what Chinese Windows tools write).
///
/// ```
/// use xiangqi_core::record::{decode, TextEncoding};
/// let gbk = [0xC5, 0xDA, 0xB6, 0xFE, 0xC6, 0xBD, 0xCE, 0xE5]; // 炮二平五 in GBK
/// let d = decode(&gbk);
/// assert_eq!((d.text.as_str(), d.encoding), ("炮二平五", TextEncoding::Gbk));
/// assert_eq!(decode("炮二平五".as_bytes()).encoding, TextEncoding::Utf8);
/// ```
pub fn decode(bytes: &[u8]) -> Decoded {
    if let Some((enc, bom)) = encoding_rs::Encoding::for_bom(bytes) {
        let (text, had_errors) = enc.decode_without_bom_handling(&bytes[bom..]);
        let encoding = if enc == encoding_rs::UTF_16LE {
            TextEncoding::Utf16Le
        } else if enc == encoding_rs::UTF_16BE {
            TextEncoding::Utf16Be
        } else {
            TextEncoding::Utf8
        };
        return Decoded { text: text.into_owned(), encoding, had_errors };
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => Decoded { text: text.to_owned(), encoding: TextEncoding::Utf8, had_errors: false },
        Err(_) => {
            let (text, had_errors) = encoding_rs::GB18030.decode_without_bom_handling(bytes);
            Decoded { text: text.into_owned(), encoding: TextEncoding::Gbk, had_errors }
        }
    }
}

/// Decodes bytes known to be GB18030/GBK (the strings of an XQF file); bad bytes become U+FFFD.
pub(crate) fn decode_gbk(bytes: &[u8]) -> String {
    encoding_rs::GB18030.decode_without_bom_handling(bytes).0.into_owned()
}

/// A character the chosen encoding cannot represent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the text cannot be written in {encoding}: it holds characters outside it")]
pub struct EncodeError {
    /// The encoding asked for.
    pub encoding: TextEncoding,
}

/// Encodes text for a file: UTF-8 as it is (no byte-order mark), GBK by encoding_rs; a character GBK lacks is an
/// error. UTF-16 is only read: asking for it writes UTF-8.
///
/// ```
/// use xiangqi_core::record::{encode, TextEncoding};
/// assert_eq!(encode("炮二平五", TextEncoding::Gbk).unwrap(), vec![0xC5, 0xDA, 0xB6, 0xFE, 0xC6, 0xBD, 0xCE, 0xE5]);
/// assert!(encode("♔", TextEncoding::Gbk).is_err());
/// ```
pub fn encode(text: &str, encoding: TextEncoding) -> Result<Vec<u8>, EncodeError> {
    match encoding {
        TextEncoding::Gbk => {
            let (bytes, _, had_errors) = encoding_rs::GBK.encode(text);
            if had_errors {
                return Err(EncodeError { encoding });
            }
            Ok(bytes.into_owned())
        }
        _ => Ok(text.as_bytes().to_vec()),
    }
}
