"""PostgreSQL's migrations 14 to 17 (``bot.storage.postgres_schema``): the functions that
let a move take fewer round trips (its game's lock taken with its read, its whole change
stored by one call, a claimed move's lock handed to its transaction), and the notices'
numbering per audience written into them. Appended to by new migrations only when they
change these functions; never edited.
"""

from __future__ import annotations

from bot.storage.sqlite_schema import TOLD_COUNTED

FUNCTIONS: tuple[str, ...] = (
    # 14: a move in fewer round trips: the game's lock taken with its read, and a move's
    # whole change stored by one call
    """
    CREATE FUNCTION lock_game(lock_space INTEGER, locked_id BIGINT) RETURNS SETOF games
    LANGUAGE plpgsql VOLATILE AS $$
    BEGIN
        PERFORM pg_advisory_lock(lock_space, locked_id::INTEGER);
        -- A new statement in a volatile function reads with a new snapshot: the game as
        -- the lock's previous holder left it.
        RETURN QUERY SELECT * FROM games WHERE id = locked_id;
    END
    $$;
    CREATE FUNCTION store_move(
        moved_id BIGINT, moved_ply INTEGER, new_state TEXT, new_status TEXT,
        new_winner INTEGER, new_end_reason TEXT, stamp DOUBLE PRECISION,
        queued_id BIGINT, mover INTEGER, action_kind TEXT, action_text TEXT,
        audiences INTEGER[], notice_texts TEXT[], ending INTEGER, told TEXT
    ) RETURNS TABLE (outcome TEXT, live_message_id BIGINT)
    LANGUAGE plpgsql VOLATILE AS $$
    DECLARE
        live BIGINT;
    BEGIN
        IF queued_id IS NOT NULL THEN
            PERFORM 1 FROM queued_moves WHERE id = queued_id FOR UPDATE;
            IF NOT FOUND THEN
                RETURN QUERY SELECT 'unqueued'::TEXT, NULL::BIGINT;
                RETURN;
            END IF;
        END IF;
        UPDATE games SET ply = ply + 1, state = new_state, status = new_status,
            winner = new_winner, end_reason = new_end_reason, updated_at = stamp
            WHERE id = moved_id AND ply = moved_ply AND status = 'active'
            RETURNING public_message_id INTO live;
        IF NOT FOUND THEN
            RETURN QUERY SELECT 'stale'::TEXT, NULL::BIGINT;
            RETURN;
        END IF;
        DELETE FROM queued_moves WHERE id = queued_id;
        INSERT INTO actions (game_id, ply, seat, kind, text, created_at)
            VALUES (moved_id, moved_ply + 1, mover, action_kind, action_text, stamp);
        INSERT INTO notices (game_id, audience, ply, texts, final, created_at)
            SELECT moved_id, told_to.audience, moved_ply + 1, told_to.texts, ending, stamp
            FROM unnest(audiences, notice_texts) AS told_to (audience, texts);
        IF told IS NOT NULL THEN
            INSERT INTO announcements (game_id, ply, tidings)
                VALUES (moved_id, moved_ply + 1, told);
        END IF;
        RETURN QUERY SELECT 'stored'::TEXT, live;
    END
    $$;
    """,
    # 15: a move's notices claimed by the call that stores it, for each audience whose backlog
    # holds nothing else (the backlog's next claim would take exactly that notice): the store
    # hands the batches to its deliverer, which then only releases them
    """
    DROP FUNCTION store_move(
        BIGINT, INTEGER, TEXT, TEXT, INTEGER, TEXT, DOUBLE PRECISION, BIGINT, INTEGER, TEXT,
        TEXT, INTEGER[], TEXT[], INTEGER, TEXT
    );
    CREATE FUNCTION store_move(
        moved_id BIGINT, moved_ply INTEGER, new_state TEXT, new_status TEXT,
        new_winner INTEGER, new_end_reason TEXT, stamp DOUBLE PRECISION,
        queued_id BIGINT, mover INTEGER, action_kind TEXT, action_text TEXT,
        audiences INTEGER[], notice_texts TEXT[], ending INTEGER, told TEXT
    ) RETURNS TABLE (outcome TEXT, live_message_id BIGINT, claimed_audiences INTEGER[])
    LANGUAGE plpgsql VOLATILE AS $$
    DECLARE
        live BIGINT;
        claimed_lanes INTEGER[];
    BEGIN
        IF queued_id IS NOT NULL THEN
            PERFORM 1 FROM queued_moves WHERE id = queued_id FOR UPDATE;
            IF NOT FOUND THEN
                RETURN QUERY SELECT 'unqueued'::TEXT, NULL::BIGINT, NULL::INTEGER[];
                RETURN;
            END IF;
        END IF;
        UPDATE games SET ply = ply + 1, state = new_state, status = new_status,
            winner = new_winner, end_reason = new_end_reason, updated_at = stamp
            WHERE id = moved_id AND ply = moved_ply AND status = 'active'
            RETURNING public_message_id INTO live;
        IF NOT FOUND THEN
            RETURN QUERY SELECT 'stale'::TEXT, NULL::BIGINT, NULL::INTEGER[];
            RETURN;
        END IF;
        DELETE FROM queued_moves WHERE id = queued_id;
        INSERT INTO actions (game_id, ply, seat, kind, text, created_at)
            VALUES (moved_id, moved_ply + 1, mover, action_kind, action_text, stamp);
        WITH held AS (
            INSERT INTO notices (game_id, audience, ply, texts, final, claimed, created_at)
            SELECT moved_id, told_to.audience, moved_ply + 1, told_to.texts, ending,
                (NOT EXISTS (
                    SELECT 1 FROM notices AS waiting
                    WHERE waiting.game_id = moved_id AND waiting.audience = told_to.audience
                ))::INTEGER,
                stamp
            FROM unnest(audiences, notice_texts) AS told_to (audience, texts)
            RETURNING audience, claimed
        )
        SELECT coalesce(array_agg(audience) FILTER (WHERE claimed = 1), '{}')
            INTO claimed_lanes FROM held;
        IF told IS NOT NULL THEN
            INSERT INTO announcements (game_id, ply, tidings)
                VALUES (moved_id, moved_ply + 1, told);
        END IF;
        RETURN QUERY SELECT 'stored'::TEXT, live, claimed_lanes;
    END
    $$;
    """,
    # 16: a worker's queued move in two round trips: claimed with its game's lock and read,
    # then stored by a call that hands the lock to its own transaction
    """
    CREATE FUNCTION claim_move(
        claimed_at DOUBLE PRECISION, lease_until DOUBLE PRECISION,
        queued_by DOUBLE PRECISION, lock_space INTEGER
    ) RETURNS TABLE (claimed queued_moves, locked games)
    LANGUAGE plpgsql VOLATILE AS $$
    DECLARE
        move queued_moves;
    BEGIN
        UPDATE queued_moves SET claimed_until = lease_until, attempts = attempts + 1
        WHERE id = (
            SELECT id FROM queued_moves AS q
            WHERE (claimed_until IS NULL OR claimed_until < claimed_at)
                AND queued_at <= queued_by
                AND NOT EXISTS (
                    SELECT 1 FROM queued_moves AS e WHERE e.game_id = q.game_id AND e.id < q.id
                )
            ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED
        ) RETURNING * INTO move;
        IF NOT FOUND THEN
            RETURN;
        END IF;
        PERFORM pg_advisory_lock(lock_space, move.game_id::INTEGER);
        -- A new statement: the game as the lock's previous holder left it.
        RETURN QUERY SELECT move, (SELECT g FROM games AS g WHERE g.id = move.game_id);
    END
    $$;
    CREATE FUNCTION store_claimed_move(
        lock_space INTEGER,
        moved_id BIGINT, moved_ply INTEGER, new_state TEXT, new_status TEXT,
        new_winner INTEGER, new_end_reason TEXT, stamp DOUBLE PRECISION,
        queued_id BIGINT, mover INTEGER, action_kind TEXT, action_text TEXT,
        audiences INTEGER[], notice_texts TEXT[], ending INTEGER, told TEXT
    ) RETURNS TABLE (outcome TEXT, live_message_id BIGINT, claimed_audiences INTEGER[])
    LANGUAGE plpgsql VOLATILE AS $$
    BEGIN
        -- The game's lock, this session's since the claim, passes to this transaction,
        -- which releases it only once the move is committed and seen: no other process
        -- can read the game as it was and then find its own move stale.
        PERFORM pg_advisory_xact_lock(lock_space, moved_id::INTEGER);
        PERFORM pg_advisory_unlock(lock_space, moved_id::INTEGER);
        RETURN QUERY SELECT * FROM store_move(
            moved_id, moved_ply, new_state, new_status, new_winner, new_end_reason, stamp,
            queued_id, mover, action_kind, action_text, audiences, notice_texts, ending, told
        );
    END
    $$;
    """,
    # 17: each audience's notices numbered per game (for nonces), and a move told to no one
    # but its player (a secret setup edit) keeps the game's wait: its last public change,
    # and its reminder if it had one
    TOLD_COUNTED
    + """
    DROP FUNCTION store_claimed_move(
        INTEGER, BIGINT, INTEGER, TEXT, TEXT, INTEGER, TEXT, DOUBLE PRECISION, BIGINT, INTEGER,
        TEXT, TEXT, INTEGER[], TEXT[], INTEGER, TEXT
    );
    DROP FUNCTION store_move(
        BIGINT, INTEGER, TEXT, TEXT, INTEGER, TEXT, DOUBLE PRECISION, BIGINT, INTEGER, TEXT,
        TEXT, INTEGER[], TEXT[], INTEGER, TEXT
    );
    CREATE FUNCTION store_move(
        moved_id BIGINT, moved_ply INTEGER, new_state TEXT, new_status TEXT,
        new_winner INTEGER, new_end_reason TEXT, stamp DOUBLE PRECISION,
        queued_id BIGINT, mover INTEGER, action_kind TEXT, action_text TEXT,
        audiences INTEGER[], notice_texts TEXT[], ending INTEGER, told TEXT
    ) RETURNS TABLE (
        outcome TEXT, live_message_id BIGINT, claimed_audiences INTEGER[], told_counts INTEGER[]
    )
    LANGUAGE plpgsql VOLATILE AS $$
    DECLARE
        live BIGINT;
        claimed_lanes INTEGER[];
        counts INTEGER[];
        public BOOLEAN := -1 = ANY(audiences);
    BEGIN
        IF queued_id IS NOT NULL THEN
            PERFORM 1 FROM queued_moves WHERE id = queued_id FOR UPDATE;
            IF NOT FOUND THEN
                RETURN QUERY SELECT 'unqueued'::TEXT, NULL::BIGINT, NULL::INTEGER[],
                    NULL::INTEGER[];
                RETURN;
            END IF;
        END IF;
        UPDATE games SET ply = ply + 1, state = new_state, status = new_status,
            winner = new_winner, end_reason = new_end_reason,
            updated_at = CASE WHEN public THEN stamp ELSE updated_at END,
            reminded_ply = CASE WHEN NOT public AND reminded_ply = ply THEN ply + 1
                ELSE reminded_ply END,
            told_seat0 = told_seat0 + (0 = ANY(audiences))::INTEGER,
            told_seat1 = told_seat1 + (1 = ANY(audiences))::INTEGER,
            told_channel = told_channel + public::INTEGER
            WHERE id = moved_id AND ply = moved_ply AND status = 'active'
            RETURNING public_message_id, ARRAY[told_seat0, told_seat1, told_channel]
            INTO live, counts;
        IF NOT FOUND THEN
            RETURN QUERY SELECT 'stale'::TEXT, NULL::BIGINT, NULL::INTEGER[], NULL::INTEGER[];
            RETURN;
        END IF;
        DELETE FROM queued_moves WHERE id = queued_id;
        INSERT INTO actions (game_id, ply, seat, kind, text, created_at)
            VALUES (moved_id, moved_ply + 1, mover, action_kind, action_text, stamp);
        WITH held AS (
            INSERT INTO notices (game_id, audience, ply, texts, final, claimed, created_at, told)
            SELECT moved_id, told_to.audience, moved_ply + 1, told_to.texts, ending,
                (NOT EXISTS (
                    SELECT 1 FROM notices AS waiting
                    WHERE waiting.game_id = moved_id AND waiting.audience = told_to.audience
                ))::INTEGER,
                stamp,
                counts[CASE WHEN told_to.audience < 0 THEN 3 ELSE told_to.audience + 1 END]
            FROM unnest(audiences, notice_texts) AS told_to (audience, texts)
            RETURNING audience, claimed
        )
        SELECT coalesce(array_agg(audience) FILTER (WHERE claimed = 1), '{}')
            INTO claimed_lanes FROM held;
        IF told IS NOT NULL THEN
            INSERT INTO announcements (game_id, ply, tidings)
                VALUES (moved_id, moved_ply + 1, told);
        END IF;
        RETURN QUERY SELECT 'stored'::TEXT, live, claimed_lanes, counts;
    END
    $$;
    CREATE FUNCTION store_claimed_move(
        lock_space INTEGER,
        moved_id BIGINT, moved_ply INTEGER, new_state TEXT, new_status TEXT,
        new_winner INTEGER, new_end_reason TEXT, stamp DOUBLE PRECISION,
        queued_id BIGINT, mover INTEGER, action_kind TEXT, action_text TEXT,
        audiences INTEGER[], notice_texts TEXT[], ending INTEGER, told TEXT
    ) RETURNS TABLE (
        outcome TEXT, live_message_id BIGINT, claimed_audiences INTEGER[], told_counts INTEGER[]
    )
    LANGUAGE plpgsql VOLATILE AS $$
    BEGIN
        -- As migration 16's: the claim's lock passes to this transaction.
        PERFORM pg_advisory_xact_lock(lock_space, moved_id::INTEGER);
        PERFORM pg_advisory_unlock(lock_space, moved_id::INTEGER);
        RETURN QUERY SELECT * FROM store_move(
            moved_id, moved_ply, new_state, new_status, new_winner, new_end_reason, stamp,
            queued_id, mover, action_kind, action_text, audiences, notice_texts, ending, told
        );
    END
    $$;
    """,
)
