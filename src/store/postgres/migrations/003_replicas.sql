-- Several servers on one database (docs/replicas.md). Each running server process is a replica with a row
-- here, refreshed every heartbeat; one that stops refreshing is dead (its hosts are away since its last
-- heartbeat). `url` is where the other replicas reach it to forward host commands.
CREATE TABLE replicas (
  id text PRIMARY KEY,
  url text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now(),
  stopped_at timestamptz
);

-- Which replica each host daemon is attached to. A replica writes only its own rows: a detach from a
-- replica the host has already left (a late close) changes nothing.
CREATE TABLE host_presence (
  host_id text PRIMARY KEY,
  replica_id text NOT NULL,
  attached_at timestamptz NOT NULL,
  detached_at timestamptz
);
