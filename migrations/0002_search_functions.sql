-- array_to_string is only STABLE, so a generated tsvector column cannot call it; this wrapper is safe to mark
-- IMMUTABLE because joining text with a fixed separator never depends on settings.
CREATE OR REPLACE FUNCTION ar_join_words(words text[]) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT coalesce(array_to_string(words, ' '), '') $$;
