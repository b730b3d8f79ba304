# The xiangqi page (`xiangqi serve`) as a container image: built in one stage, the binary alone in the last.
#
#   docker build -t xiangqi .
#   docker run --rm -p 8080:8080 xiangqi
#
# The page is then at http://<the machine's address>:8080 (see book/src/deploy.md for Kubernetes and for what the
# WebSocket's Origin check asks of the address the students type).

# --- build -------------------------------------------------------------------------------------------------------
FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
# The release profile of the workspace (fat LTO): a few minutes.
RUN cargo build --release --locked -p xiangqi-cli \
    && cp target/release/xiangqi /xiangqi

# --- run ---------------------------------------------------------------------------------------------------------
# distroless/cc: glibc and libgcc, which the binary links to, and nothing else (no shell, no package manager).
FROM gcr.io/distroless/cc-debian12:nonroot
COPY --from=build /xiangqi /xiangqi
EXPOSE 8080
USER nonroot
# 0.0.0.0: every interface of the container (the default, 127.0.0.1, would be unreachable from outside it).
ENTRYPOINT ["/xiangqi"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8080"]
