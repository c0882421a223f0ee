-- gridrun results store, schema version 2: scheduler jobs.
-- runs.job is the scheduler job carrying the current attempt (slurm:<array id>_<task>, slurm:<id>, local:<pid>),
-- the latest one any of the attempt's status entries named.
ALTER TABLE runs ADD COLUMN IF NOT EXISTS job VARCHAR(255);

-- One row per sbatch submission: which scripts of which run it runs, so that a later grid-run knows what is in
-- flight, and which script files it must not overwrite.
CREATE TABLE IF NOT EXISTS submissions (
    job_id        VARCHAR(255)  NOT NULL PRIMARY KEY,
    grid          VARCHAR(255)  NOT NULL,
    run           VARCHAR(255)  NOT NULL,
    script_prefix VARCHAR(1000) NOT NULL,
    sbatch_file   VARCHAR(4000) NOT NULL,
    first_script  INT           NOT NULL,
    tasks         INT           NOT NULL,
    experiments   INT           NOT NULL,
    depends_on    VARCHAR(4000),
    submitted     TIMESTAMP WITH TIME ZONE DEFAULT CURRENT_TIMESTAMP NOT NULL
);
CREATE INDEX IF NOT EXISTS submissions_grid_run ON submissions (grid, run);
