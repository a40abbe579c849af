# PostgreSQL 15 and HAProxy 2.6 from Debian 12's packages: stand-ins for the postgres:15 and
# haproxy:2.6 images of docker/compose.cluster.yaml where no image registry is reachable (only
# Debian's mirror). scripts/container-check builds and runs them; compose keeps the upstream
# images. Build one stage from the repo root, e.g.:
#   podman build -f docker/cluster-services.Dockerfile --target postgres -t gcor-postgres:15 .

FROM debian:bookworm-slim AS postgres
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-15 \
    && rm -rf /var/lib/apt/lists/*
# Where postgres:15 keeps its cluster (compose's postgres-data volume).
ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    PGDATA=/var/lib/postgresql/data
RUN mkdir -p "$PGDATA" && chown postgres:postgres "$PGDATA" && chmod 700 "$PGDATA"
USER postgres
EXPOSE 5432
CMD ["postgres", "-c", "listen_addresses=*"]

FROM debian:bookworm-slim AS haproxy
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends haproxy \
    && rm -rf /var/lib/apt/lists/* \
    && mkdir -p /usr/local/etc/haproxy
# The configuration where the haproxy:2.6 image reads it (compose mounts docker/haproxy.cfg there).
USER haproxy
CMD ["haproxy", "-W", "-db", "-f", "/usr/local/etc/haproxy/haproxy.cfg"]
