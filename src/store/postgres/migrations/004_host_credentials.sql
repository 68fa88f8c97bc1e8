-- Enrollment codes and host credentials (issue 30, docs/hosts.md#enrolling-a-host), laid out like the other
-- registry tables (002). Both hold sha256 hashes only: an enrollment by the hash of its code, a credential by
-- its host id (with the hash of the secret, or the time the host was removed).
CREATE TABLE registry_enrollments (id text PRIMARY KEY, record json NOT NULL, created_at text, host_id text, project_id text);
CREATE TABLE registry_host_credentials (id text PRIMARY KEY, record json NOT NULL, created_at text, host_id text, project_id text);
