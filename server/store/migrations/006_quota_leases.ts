import type { Knex } from 'knex';

/**
 * Reserving quota units in one round trip: the row is locked, checked and raised in a single
 * call, and the caller learns exactly how many units it got (an upsert cannot tell, since
 * RETURNING does not see the old count).
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE FUNCTION reserve_quota(p_key integer, p_month date, p_limit integer, p_want integer)
    RETURNS TABLE (granted integer, total integer) LANGUAGE plpgsql AS $$
    DECLARE
      current_count integer;
    BEGIN
      INSERT INTO api_usage (key_id, month, count) VALUES (p_key, p_month, 0) ON CONFLICT (key_id, month) DO NOTHING;
      SELECT u.count INTO current_count FROM api_usage u WHERE u.key_id = p_key AND u.month = p_month FOR UPDATE;
      IF current_count >= p_limit OR p_want < 1 THEN
        RETURN QUERY SELECT 0, current_count;
        RETURN;
      END IF;
      UPDATE api_usage u SET count = LEAST(current_count + p_want, p_limit) WHERE u.key_id = p_key AND u.month = p_month;
      RETURN QUERY SELECT LEAST(p_want, p_limit - current_count), LEAST(current_count + p_want, p_limit);
    END $$;
  `);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP FUNCTION reserve_quota(integer, date, integer, integer)');
}
