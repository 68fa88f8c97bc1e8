-- Review comments on threads' diffs (issue 38), laid out like the other registry tables (002), found by the
-- thread they belong to. Every registry table gets the `thread_id` lookup column, so one collection code
-- serves them all (a nullable column without a default: no table is rewritten).
CREATE TABLE registry_review_comments (id text PRIMARY KEY, record json NOT NULL, created_at text, host_id text, project_id text);
ALTER TABLE registry_projects ADD COLUMN thread_id text;
ALTER TABLE registry_hosts ADD COLUMN thread_id text;
ALTER TABLE registry_environments ADD COLUMN thread_id text;
ALTER TABLE registry_threads ADD COLUMN thread_id text;
ALTER TABLE registry_enrollments ADD COLUMN thread_id text;
ALTER TABLE registry_host_credentials ADD COLUMN thread_id text;
ALTER TABLE registry_review_comments ADD COLUMN thread_id text;
CREATE INDEX registry_review_comments_thread ON registry_review_comments (thread_id);
