// @ts-check
/*
 * One ingestion run at a time across backend instances (architecture.md, "failure behaviour").
 * Two replicas could each run ingestion (a manual start on one while the other runs the
 * schedule); the runs overlapped, and one could delete an entity the other had just indexed.
 * The database now holds at most one 'running' run (a partial unique index), and the instance
 * running it proves it is alive with `heartbeat_at`; a run without a heartbeat for a while is
 * abandoned and the next start takes over.
 */

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(
    'ALTER TABLE ask_docs_ingestion_runs ADD COLUMN heartbeat_at timestamptz',
  );
  // Runs recorded before had no heartbeat: their start is the last sign of life we know.
  await knex.raw(
    'UPDATE ask_docs_ingestion_runs SET heartbeat_at = COALESCE(finished_at, started_at)',
  );
  await knex.raw(
    `ALTER TABLE ask_docs_ingestion_runs
       ALTER COLUMN heartbeat_at SET DEFAULT now(),
       ALTER COLUMN heartbeat_at SET NOT NULL`,
  );
  // The index below allows one 'running' run: older ones (overlapping runs, or runs of stopped
  // backends not yet marked) end as failed, with the reason.
  await knex.raw(
    `UPDATE ask_docs_ingestion_runs
        SET status = 'failed', finished_at = now(),
            errors = errors || '[{"message":"abandoned: a later run was in progress"}]'::jsonb
      WHERE status = 'running'
        AND id < (SELECT max(id) FROM ask_docs_ingestion_runs WHERE status = 'running')`,
  );
  await knex.raw(
    `CREATE UNIQUE INDEX ask_docs_ingestion_runs_one_running
       ON ask_docs_ingestion_runs (status) WHERE status = 'running'`,
  );
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.raw('DROP INDEX ask_docs_ingestion_runs_one_running');
  await knex.raw(
    'ALTER TABLE ask_docs_ingestion_runs DROP COLUMN heartbeat_at',
  );
};
