-- Full-text search over threads (issue 31): one row per searchable thread row (what the user sent, the
-- agent's answer, a command line), written by the server right after the rows are stored. The words are cut
-- as the embedded engine cuts them (runs of letters and digits; everything else a space) and left unstemmed
-- ('simple'), so a query finds the same rows on either engine.
CREATE TABLE search_docs (
  thread_id text NOT NULL,
  seq integer NOT NULL,
  kind text NOT NULL,
  text text NOT NULL,
  tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', regexp_replace(text, '[^[:alnum:]]+', ' ', 'g'))) STORED,
  PRIMARY KEY (thread_id, seq)
);
CREATE INDEX search_docs_tsv ON search_docs USING gin (tsv);

-- How far each thread is indexed, so a start catches up what a crash between the append and the index lost
-- (and a database that had rows before this migration is indexed whole, in the background).
CREATE TABLE search_heads (
  thread_id text PRIMARY KEY,
  last_seq integer NOT NULL
);
