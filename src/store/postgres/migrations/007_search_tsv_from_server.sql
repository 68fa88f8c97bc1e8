-- The server cuts each row's words and sends its `tsvector` (issue 31, the burst): computing it here
-- (`regexp_replace`, then `to_tsvector`'s parser) cost more than the GIN insert itself, about 110 µs of the
-- database's CPU per row on 2 cores, so after a saturated burst the index fell ~70 s behind the appends.
-- The column stops being generated (no rewrite: rows indexed before keep the vector they have). A writer
-- that sends no vector (a replica still on the code before this migration) gets the database's own cut,
-- as before, so its rows stay findable during a rolling upgrade.
ALTER TABLE search_docs ALTER COLUMN tsv DROP EXPRESSION;

CREATE FUNCTION ats_search_docs_tsv() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.tsv := to_tsvector('simple', regexp_replace(NEW.text, '[^[:alnum:]]+', ' ', 'g'));
  RETURN NEW;
END;
$$;
CREATE TRIGGER search_docs_tsv BEFORE INSERT ON search_docs
  FOR EACH ROW WHEN (NEW.tsv IS NULL) EXECUTE FUNCTION ats_search_docs_tsv();
