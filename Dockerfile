# docproc as a container (docs/deployment.md). Two stages: the build stage compiles the single binary and its
# companion folder (scripts/build.ts, docs/binary.md); the runtime stage is a slim Debian with nothing but them,
# curl for the health check, and a non-root user. Build on the platform you deploy to (linux/amd64 here).
#
#   docker build -t docproc .
#   docker run -p 8080:8080 -e ADMIN_API_KEY=change-me -v docproc-data:/data docproc

FROM node:22-bookworm AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN node_modules/.bin/bun run build

FROM debian:bookworm-slim AS runtime
# curl: the HEALTHCHECK below. tesseract-ocr is optional (the embedded wasm engine always works); add it for the
# native engine's speed: apt-get install tesseract-ocr tesseract-ocr-deu ...
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 docproc \
 && useradd --system --uid 10001 --gid docproc --home-dir /data --shell /usr/sbin/nologin docproc \
 && mkdir -p /data \
 && chown docproc:docproc /data
# The binary finds docproc-lib/ next to its own path: the two MUST stay side by side.
COPY --from=build /src/dist/docproc /opt/docproc/docproc
COPY --from=build /src/dist/docproc-lib /opt/docproc/docproc-lib
ENV DOCPROC_HOST=0.0.0.0 \
    DOCPROC_PORT=8080 \
    DOCPROC_DATA=/data \
    DOCPROC_LOG_FORMAT=json
USER docproc
WORKDIR /data
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 CMD ["curl", "-fsS", "-o", "/dev/null", "http://127.0.0.1:8080/health"]
# SIGTERM: stop accepting, finish the current page of running jobs, checkpoint, exit (docs/operations.md); give it
# time with `docker stop -t 60` or compose's stop_grace_period.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/opt/docproc/docproc"]
CMD ["serve", "--workers", "2"]
