"""The library's functions on PostgreSQL (schema.py creates them with its tables): the collections a role may see,
the triggers' bodies (a row's collection from its source, file or chunk, and moved with it; the library version and
the keyword totals; the personal caches that go with a chunk, file or conversation; the settings guarded; the
channel notified), the vectors' dimension and an edited file's carried references (the administrator's functions).
"""

from __future__ import annotations

CHANNEL = "desktop_rag_changed"  # (one library a database: the schema's name is fixed)
CARRY = "carry_chunk_references"
CARRY_ARGUMENTS = "bigint, bigint[], bigint[]"
HIDDEN_OVERLAP = "overlaps_hidden_source"
HIDDEN_OVERLAP_ARGUMENTS = "text, text, text, text[]"
# the vectors' tables in the order every writer of both takes them (a move's mode conflicts with itself and with a
# deleting or storing writer's ROW EXCLUSIVE, never with readers)
LOCK_VECTORS = "LOCK TABLE vectors, staged_vectors IN {mode} MODE"
_CARRY_ARGUMENTS_BEFORE_10 = "bigint, bigint[], bigint[], bigint[], " + ", ".join(["integer[]"] * 5)

# One statement per item (dollar-quoted bodies hold semicolons).
FUNCTIONS = (
    # the collections the calling role may see: those granted to a role it is a member of (the owner bypasses RLS).
    # The grants of `current_user` only (a view reads the table with its owner's rights but names the caller; a
    # security barrier: no function of the caller's sees a row before that filter), so no role learns another's;
    # before version 12 the function took any role's name and ran as the administrator (CASCADE: the policies
    # calling it go with it, and security_statements makes them again)
    "DROP FUNCTION IF EXISTS visible_collections(name) CASCADE",
    "CREATE OR REPLACE VIEW visible_grants WITH (security_barrier) AS SELECT g.collection_id "
    "FROM collection_grants g JOIN pg_roles r ON r.rolname = g.role WHERE pg_has_role(current_user, r.oid, 'MEMBER')",
    "CREATE OR REPLACE FUNCTION visible_collections() RETURNS bigint[] LANGUAGE sql STABLE "
    "SET search_path = desktop_rag, pg_catalog AS $$ SELECT coalesce(array_agg(DISTINCT collection_id), '{}') "
    "FROM visible_grants $$",
    # a row's collection follows its source / file (a chunk's, a recognised line's: chunk_collection) / chunk
    "CREATE OR REPLACE FUNCTION file_collection() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    "NEW.collection_id := (SELECT collection_id FROM sources WHERE id = NEW.source_id); RETURN NEW; END $$",
    "CREATE OR REPLACE FUNCTION chunk_collection() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    "NEW.collection_id := (SELECT collection_id FROM files WHERE id = NEW.file_id); RETURN NEW; END $$",
    "CREATE OR REPLACE FUNCTION vector_collection() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    "NEW.collection_id := (SELECT collection_id FROM chunks WHERE id = NEW.chunk_id); RETURN NEW; END $$",
    # a source whose path is set anew (linked to a folder of this computer) belongs to the client that did it
    "CREATE OR REPLACE FUNCTION source_linked() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    "NEW.client := coalesce(current_setting('desktop_rag.client', true), ''); RETURN NEW; END $$",
    # the vectors' dimension, set once the first vectors come (by any role: the administrator's function), with
    # the HNSW index that needs it
    "CREATE OR REPLACE FUNCTION set_vector_dimension(wanted integer) RETURNS void LANGUAGE plpgsql SECURITY DEFINER "
    "SET search_path = desktop_rag, public, pg_catalog AS $$ DECLARE held integer; BEGIN "
    "SELECT atttypmod INTO held FROM pg_attribute WHERE attrelid = 'desktop_rag.vectors'::regclass "
    "AND attname = 'embedding'; IF held = wanted THEN RETURN; END IF; "
    "IF EXISTS (SELECT 1 FROM vectors) THEN RAISE EXCEPTION 'vectors of % dimensions are stored', held "
    "USING ERRCODE = '22000'; END IF; DROP INDEX IF EXISTS vectors_hnsw; "
    "EXECUTE format('ALTER TABLE vectors ALTER COLUMN embedding TYPE vector(%s)', wanted); "
    "CREATE INDEX vectors_hnsw ON vectors USING hnsw (embedding vector_ip_ops); END $$",
    # a row's collection goes down to its rows (those not there already: an update writes a new version of each row
    # it touches, a vector's into the HNSW index too)
    "CREATE OR REPLACE FUNCTION source_moved() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    "UPDATE files SET collection_id = NEW.collection_id WHERE source_id = NEW.id "
    "AND collection_id IS DISTINCT FROM NEW.collection_id; RETURN NEW; END $$",
    "CREATE OR REPLACE FUNCTION file_moved() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    "UPDATE chunks SET collection_id = NEW.collection_id WHERE file_id = NEW.id "
    "AND collection_id IS DISTINCT FROM NEW.collection_id; "
    "UPDATE ocr_lines SET collection_id = NEW.collection_id WHERE file_id = NEW.id "
    "AND collection_id IS DISTINCT FROM NEW.collection_id; RETURN NEW; END $$",
    # (the vectors' writers first: a vector stored meanwhile took its collection from the chunk as last committed, and
    # one stored from now on waits for this transaction; "vectors, staged" is the order every writer of both takes)
    "CREATE OR REPLACE FUNCTION chunk_moved() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    f"{LOCK_VECTORS.format(mode='SHARE ROW EXCLUSIVE')}; "
    "UPDATE vectors SET collection_id = NEW.collection_id WHERE chunk_id = NEW.id "
    "AND collection_id IS DISTINCT FROM NEW.collection_id; "
    "UPDATE staged_vectors SET collection_id = NEW.collection_id WHERE chunk_id = NEW.id "
    "AND collection_id IS DISTINCT FROM NEW.collection_id; RETURN NEW; END $$",
    # the personal caches follow the library: a stored answer goes with a chunk it was given, a summary with its
    # file, an answer and its log row with their conversation
    "CREATE OR REPLACE FUNCTION chunk_gone() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER "
    "SET search_path = desktop_rag, pg_catalog AS $$ BEGIN "
    "DELETE FROM answer_cache_all a USING answer_cache_chunks_all c "
    "WHERE c.chunk_id = OLD.id AND a.owner = c.owner AND a.key = c.key; RETURN NULL; END $$",
    # the rows keeping a passage of one of the chunks (`kept_chunks`), with their list of passages
    "CREATE OR REPLACE FUNCTION kept_lists(olds bigint[]) RETURNS TABLE (kind text, row_id bigint, stored text) "
    "LANGUAGE sql STABLE SET search_path = desktop_rag, pg_catalog AS $$ "
    "SELECT k.kind, k.row_id, coalesce(m.sources_json, a.passages_json) "
    "FROM (SELECT DISTINCT kind, row_id FROM kept_chunks WHERE chunk_id = ANY (olds)) k "
    "LEFT JOIN messages_all m ON k.kind = 'messages' AND m.id = k.row_id "
    "LEFT JOIN answer_log_all a ON k.kind = 'answer_log' AND a.id = k.row_id $$",
    # a list of passages moved by `move_passage`'s rule (NULL: it stays): the old chunks inside a passage's place,
    # all paired (`olds`, `news`; the old chunks' places and the shifts in the arrays after them, in pair order),
    # begin and end it, are a run of ordinals and moved by one shift; moved when a passage is, and every passage of
    # the list is whole (else the list stays, as `carry` leaves it). A number that is not an integer raises
    # data_exception (the caller's row stays)
    "CREATE OR REPLACE FUNCTION moved_passages(stored text, file bigint, olds bigint[], news bigint[], "
    "starts integer[], ends integer[], ordinals integer[], shifts integer[], steps integer[], pages integer[]) "
    "RETURNS jsonb LANGUAGE sql IMMUTABLE SET search_path = pg_catalog AS $$ "
    "SELECT CASE WHEN bool_or(s.new IS NOT NULL) AND bool_and(coalesce(jsonb_typeof(x.e) = 'object' "
    "AND (x.e ->> 'file_id' IS DISTINCT FROM file::text OR NOT x.e ->> 'chunk_id' = ANY (olds::text[]) "
    "OR (jsonb_typeof(x.e -> 'char_start') = 'number' "
    "AND jsonb_typeof(x.e -> 'char_end') = 'number' AND jsonb_typeof(x.e -> 'ordinal') = 'number' "
    "AND x.e ? 'page')), false)) "
    "THEN jsonb_agg(CASE WHEN s.new IS NULL THEN x.e ELSE x.e || jsonb_build_object('chunk_id', s.new, "
    "'char_start', (x.e ->> 'char_start')::integer + s.shift, 'char_end', (x.e ->> 'char_end')::integer + s.shift, "
    "'ordinal', (x.e ->> 'ordinal')::integer + s.step, 'page', coalesce(to_jsonb(s.page), x.e -> 'page')) "
    "END ORDER BY x.k) END "
    "FROM jsonb_array_elements(stored::jsonb) WITH ORDINALITY AS x(e, k) "
    "LEFT JOIN LATERAL (SELECT (SELECT p.new FROM unnest(olds, news) AS p(old, new) "
    "WHERE p.old::text = x.e ->> 'chunk_id') AS new, min(i.shift) AS shift, min(i.step) AS step, "
    "(array_agg(i.page ORDER BY i.ordinal) FILTER (WHERE i.page IS NOT NULL))[1] AS page "
    "FROM unnest(starts, ends, ordinals, shifts, steps, pages) AS i(start, finish, ordinal, shift, step, page) "
    "WHERE i.start >= (x.e ->> 'char_start')::integer AND i.finish <= (x.e ->> 'char_end')::integer "
    "HAVING count(*) > 0 AND min(i.start) = (x.e ->> 'char_start')::integer "
    "AND max(i.finish) = (x.e ->> 'char_end')::integer AND count(DISTINCT i.ordinal) = count(*) "
    "AND max(i.ordinal) - min(i.ordinal) + 1 = count(*) AND count(DISTINCT (i.shift, i.step)) = 1) s "
    "ON jsonb_typeof(x.e) = 'object' AND x.e ->> 'file_id' = file::text AND x.e ->> 'chunk_id' = ANY (olds::text[]) $$",
    # whether moved_passages reads a list without an error: its places and ordinals are integers (of 9 digits at most)
    "CREATE OR REPLACE FUNCTION plain_passages(stored text) RETURNS boolean LANGUAGE sql IMMUTABLE "
    "SET search_path = pg_catalog AS $$ SELECT NOT EXISTS (SELECT 1 FROM jsonb_array_elements(stored::jsonb) AS x(e), "
    "unnest(ARRAY['char_start', 'char_end', 'ordinal']) AS n(key) "
    "WHERE NOT coalesce(x.e ->> n.key ~ '^-?[0-9]{1,9}$', true)) $$",
    # an edited file's unchanged passages keep every person's marks, kept passages and stored answers' links to them
    # (store/carried_references.py: the pairs are the store's, from its one rule). Only pairs (old, new) of the file's
    # chunks with one heading and text, the new ones added in this very transaction (by the caller, under its
    # row-level security), the old ones not: a member moves no one's references but from the chunks of a file it is
    # reading again to their copies. The kept lists move by moved_passages in one statement; those it could not read
    # (plain_passages), or all of them should that statement fail, row by row, a damaged row staying as it is (it
    # never stops a re-read; moving a list twice moves it once: its old chunks are gone from it)
    f"DROP FUNCTION IF EXISTS {CARRY}({_CARRY_ARGUMENTS_BEFORE_10})",
    f"CREATE OR REPLACE FUNCTION {CARRY}(file bigint, olds bigint[], news bigint[]) RETURNS void "
    "LANGUAGE plpgsql SECURITY DEFINER SET search_path = desktop_rag, pg_catalog AS $$ "
    "DECLARE here xid := pg_current_xact_id()::xid; r record; moved jsonb; rest text[]; failed boolean := false; "
    "starts integer[]; ends integer[]; ordinals integer[]; shifts integer[]; steps integer[]; pages integer[]; BEGIN "
    "IF cardinality(olds) IS DISTINCT FROM cardinality(news) "
    "OR (SELECT count(DISTINCT x) FROM unnest(olds) x) <> cardinality(olds) "
    "OR (SELECT count(DISTINCT x) FROM unnest(news) x) <> cardinality(news) "
    "OR EXISTS (SELECT 1 FROM unnest(olds, news) AS p(old, new) LEFT JOIN chunks o ON o.id = p.old "
    "AND o.file_id = file LEFT JOIN chunks n ON n.id = p.new AND n.file_id = file WHERE o.id IS NULL OR n.id IS NULL "
    "OR o.xmin = here OR n.xmin <> here OR o.heading <> n.heading OR o.text <> n.text) THEN "
    "RAISE EXCEPTION 'references move only to the copies of a file''s chunks read again in this transaction' "
    "USING ERRCODE = '42501'; END IF; "
    "UPDATE answer_marks_all m SET chunk_id = p.new, char_start = n.char_start, char_end = n.char_end "
    "FROM unnest(olds, news) AS p(old, new) JOIN chunks n ON n.id = p.new WHERE m.chunk_id = p.old; "
    "UPDATE answer_cache_chunks_all c SET chunk_id = p.new FROM unnest(olds, news) AS p(old, new) "
    "WHERE c.chunk_id = p.old; "
    "SELECT array_agg(o.char_start ORDER BY k), array_agg(o.char_end ORDER BY k), array_agg(o.ordinal ORDER BY k), "
    "array_agg(n.char_start - o.char_start ORDER BY k), array_agg(n.ordinal - o.ordinal ORDER BY k), "
    "array_agg(n.page ORDER BY k) INTO starts, ends, ordinals, shifts, steps, pages "
    "FROM unnest(olds, news) WITH ORDINALITY AS p(old, new, k) JOIN chunks o ON o.id = p.old "
    "JOIN chunks n ON n.id = p.new; "
    "BEGIN "
    "WITH k AS MATERIALIZED (SELECT kind, row_id, stored, plain_passages(stored) AS plain FROM kept_lists(olds)), "
    "v AS (SELECT kind, row_id, moved_passages(stored, file, olds, news, starts, ends, ordinals, shifts, steps, "
    "pages) AS moved FROM k WHERE plain), "
    "m AS (UPDATE messages_all t SET sources_json = v.moved::text FROM v "
    "WHERE v.kind = 'messages' AND v.moved IS NOT NULL AND t.id = v.row_id), "
    "a AS (UPDATE answer_log_all t SET passages_json = v.moved::text FROM v "
    "WHERE v.kind = 'answer_log' AND v.moved IS NOT NULL AND t.id = v.row_id) "
    "SELECT coalesce(array_agg(kind || ' ' || row_id) FILTER (WHERE NOT plain), '{}') INTO rest FROM k; "
    "EXCEPTION WHEN data_exception OR program_limit_exceeded THEN failed := true; END; "
    "FOR r IN SELECT * FROM kept_lists(olds) k WHERE failed OR k.kind || ' ' || k.row_id = ANY (rest) LOOP "
    "BEGIN "
    "moved := moved_passages(r.stored, file, olds, news, starts, ends, ordinals, shifts, steps, pages); "
    "IF moved IS NOT NULL AND r.kind = 'messages' THEN "
    "UPDATE messages_all SET sources_json = moved::text WHERE id = r.row_id; "
    "ELSIF moved IS NOT NULL THEN UPDATE answer_log_all SET passages_json = moved::text WHERE id = r.row_id; END IF; "
    "EXCEPTION WHEN data_exception OR program_limit_exceeded THEN NULL; END; "  # a damaged row stays as it is
    "END LOOP; END $$",
    f"REVOKE EXECUTE ON FUNCTION {CARRY}({CARRY_ARGUMENTS}) FROM PUBLIC",  # members' (member_privileges)
    # whether a path a member would add is, holds or lies inside (`above`: its folders) a source of a collection it
    # may not see: yes or no, never which one (row-level security hides those sources from its own check,
    # store/sources.py). The caller is `session_user` (the role that logged in: here `current_user` is the
    # administrator); a role may not see what the administrator and superusers see
    f"CREATE OR REPLACE FUNCTION {HIDDEN_OVERLAP}(exact text, low text, high text, above text[]) RETURNS boolean "
    "LANGUAGE sql STABLE SECURITY DEFINER SET search_path = desktop_rag, pg_catalog AS $$ "
    "SELECT NOT pg_has_role(session_user, (SELECT nspowner FROM pg_namespace WHERE nspname = 'desktop_rag'), "
    "'USAGE') AND EXISTS (SELECT 1 FROM sources s WHERE (s.path = exact OR (s.path >= low AND s.path < high) "
    "OR (s.kind = 'folder' AND s.path = ANY (above))) AND NOT EXISTS (SELECT 1 FROM collection_grants g "
    "JOIN pg_roles r ON r.rolname = g.role WHERE g.collection_id = s.collection_id "
    "AND pg_has_role(session_user, r.oid, 'MEMBER'))) $$",
    f"REVOKE EXECUTE ON FUNCTION {HIDDEN_OVERLAP}({HIDDEN_OVERLAP_ARGUMENTS}) FROM PUBLIC",  # members' too
    # the chunk ids a kept list of passages names (none when it is damaged), noted with its row
    "CREATE OR REPLACE FUNCTION kept_chunk_ids(stored text) RETURNS SETOF bigint LANGUAGE plpgsql IMMUTABLE "
    "SET search_path = pg_catalog AS $$ BEGIN RETURN QUERY SELECT DISTINCT (e ->> 'chunk_id')::bigint "
    "FROM jsonb_array_elements(stored::jsonb) AS e WHERE jsonb_typeof(e) = 'object' "
    "AND jsonb_typeof(e -> 'chunk_id') = 'number'; "
    "EXCEPTION WHEN data_exception OR program_limit_exceeded THEN RETURN; END $$",
    "CREATE OR REPLACE FUNCTION kept_chunks_noted() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER "
    "SET search_path = desktop_rag, pg_catalog AS $$ BEGIN "
    "IF TG_OP <> 'INSERT' THEN DELETE FROM kept_chunks WHERE row_id = OLD.id AND kind = TG_ARGV[0]; END IF; "
    "IF TG_OP <> 'DELETE' THEN INSERT INTO kept_chunks SELECT k, TG_ARGV[0], NEW.id "
    "FROM kept_chunk_ids(to_jsonb(NEW) ->> TG_ARGV[1]) AS k; END IF; RETURN NULL; END $$",
    "CREATE OR REPLACE FUNCTION file_gone() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER "
    "SET search_path = desktop_rag, pg_catalog AS $$ BEGIN "
    "DELETE FROM summary_cache_all WHERE file_id = OLD.id; RETURN NULL; END $$",
    "CREATE OR REPLACE FUNCTION conversation_gone() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    "DELETE FROM answer_cache_all WHERE conversation_id = OLD.id; "
    "DELETE FROM answer_log_all WHERE conversation_id = OLD.id; RETURN NULL; END $$",
    # the library version, moved by any statement that can change a search's result
    "CREATE OR REPLACE FUNCTION library_moved() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER "
    "SET search_path = desktop_rag, pg_catalog AS $$ BEGIN INSERT INTO library_counters (backend, version) "
    "VALUES (pg_backend_pid(), 1) ON CONFLICT (backend) DO UPDATE SET version = library_counters.version + 1; "
    "RETURN NULL; END $$",
    # another client's windows look again (payload-free: NOTIFY sends once per transaction, at its commit)
    "CREATE OR REPLACE FUNCTION library_notified() RETURNS trigger LANGUAGE plpgsql SET search_path = pg_catalog "
    f"AS $$ BEGIN PERFORM pg_notify('{CHANNEL}', ''); RETURN NULL; END $$",
    # the keyword index's totals (BM25's N and average length), from the rows a statement added or removed
    "CREATE OR REPLACE FUNCTION chunks_added() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER "
    "SET search_path = desktop_rag, pg_catalog AS $$ BEGIN INSERT INTO library_counters AS k (backend, chunks, tokens) "
    "SELECT pg_backend_pid(), count(*), coalesce(sum(term_count), 0) FROM changed ON CONFLICT (backend) DO UPDATE "
    "SET chunks = k.chunks + excluded.chunks, tokens = k.tokens + excluded.tokens; RETURN NULL; END $$",
    "CREATE OR REPLACE FUNCTION chunks_removed() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER "
    "SET search_path = desktop_rag, pg_catalog AS $$ BEGIN INSERT INTO library_counters AS k (backend, chunks, tokens) "
    "SELECT pg_backend_pid(), -count(*), -coalesce(sum(term_count), 0) FROM changed ON CONFLICT (backend) DO UPDATE "
    "SET chunks = k.chunks + excluded.chunks, tokens = k.tokens + excluded.tokens; RETURN NULL; END $$",
    # the library's settings are its administrator's; another role may write a value unchanged (the app's upserts),
    # add a missing setting (a new library's first vectors), say a language is there or forget a language flag (it is
    # scanned again when asked), never that it is not (the administrator's "auto" model and everyone's cross-language
    # search follow the flags), and write the skipped counts of the sources it sees (row-level security: invoker)
    "CREATE OR REPLACE FUNCTION meta_guarded() RETURNS trigger LANGUAGE plpgsql "
    "SET search_path = desktop_rag, pg_catalog AS $$ DECLARE setting text := coalesce(OLD.key, NEW.key); "
    "allowed boolean; BEGIN "
    "IF (TG_OP = 'UPDATE' AND NEW IS NOT DISTINCT FROM OLD) "
    "OR pg_has_role(current_user, (SELECT nspowner FROM pg_namespace WHERE nspname = TG_TABLE_SCHEMA), 'USAGE') THEN "
    "allowed := true; "
    "ELSIF TG_OP = 'UPDATE' AND NEW.key <> OLD.key THEN allowed := false; "
    "ELSIF setting IN ('has_cjk', 'has_latin') THEN allowed := TG_OP = 'DELETE' OR NEW.value = '1'; "
    "ELSIF setting LIKE 'skipped.%' THEN "
    "allowed := EXISTS (SELECT 1 FROM sources WHERE id::text = substr(setting, length('skipped.') + 1)); "
    "ELSE allowed := TG_OP = 'INSERT'; END IF; "
    "IF NOT allowed THEN RAISE EXCEPTION 'the library setting \"%\" is its administrator''s to change', setting "
    "USING ERRCODE = '42501', CONSTRAINT = 'library_settings', DETAIL = setting; END IF; "
    "IF TG_OP = 'DELETE' THEN RETURN OLD; END IF; RETURN NEW; END $$",
    # a trigger body that runs as the administrator is the schema's triggers' only: no role may hang it on a table
    # of its own (a temporary one) to write the administrator's rows (firing a trigger checks no privilege)
    "DO $$ DECLARE f regprocedure; BEGIN FOR f IN SELECT p.oid FROM pg_proc p "
    "WHERE p.pronamespace = 'desktop_rag'::regnamespace AND p.prosecdef AND p.prorettype = 'trigger'::regtype LOOP "
    "EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f); END LOOP; END $$",
)
