-- The registry: projects, hosts, environments, threads. Each record is kept whole as the API shows it
-- (`json`: the text as written). `host_id` and `project_id` copy the record's fields the server looks up
-- by, so lookups never parse the JSON (which fails on a `\u0000` anywhere in a record); `created_at` orders
-- listings as the nedb files do.
CREATE TABLE registry_projects (id text PRIMARY KEY, record json NOT NULL, created_at text, host_id text, project_id text);
CREATE TABLE registry_hosts (id text PRIMARY KEY, record json NOT NULL, created_at text, host_id text, project_id text);
CREATE TABLE registry_environments (id text PRIMARY KEY, record json NOT NULL, created_at text, host_id text, project_id text);
CREATE TABLE registry_threads (id text PRIMARY KEY, record json NOT NULL, created_at text, host_id text, project_id text);

-- The lookups the server makes: threads of a project, and of a host (re-opened at each hello).
CREATE INDEX registry_threads_project ON registry_threads (project_id);
CREATE INDEX registry_threads_host ON registry_threads (host_id);
