-- gridrun results store, schema version 3: attempts, the attempt of each metric, latest values, spool watermarks.

-- experiments.hash is the SHA-256 of canonical, the resolved config as JSON with its keys sorted: two experiments
-- with one hash trained the same thing, whatever their grids called them. Rows from version 2 get theirs on the next
-- ingest or recorded state.
ALTER TABLE experiments ADD COLUMN IF NOT EXISTS hash VARCHAR(64);
ALTER TABLE experiments ADD COLUMN IF NOT EXISTS canonical VARCHAR;

-- Every attempt of every experiment, numbered from 1 in the order the status history started them; runs keeps the
-- current one for the queries that only need that. exit_code and fail_trace come from the terminal entry,
-- backend from a COMPLETED entry; git_commit and git_dirty from a RUNNING entry that names them (null otherwise).
CREATE TABLE IF NOT EXISTS attempts (
    experiment_id VARCHAR(255) NOT NULL,
    attempt       INT          NOT NULL,
    state         VARCHAR(16)  NOT NULL,
    host          VARCHAR(255),
    job           VARCHAR(255),
    started       TIMESTAMP WITH TIME ZONE,
    ended         TIMESTAMP WITH TIME ZONE,
    exit_code     INT,
    fail_trace    VARCHAR,
    git_commit    VARCHAR(64),
    git_dirty     BOOLEAN,
    backend       VARCHAR(255),
    updated       TIMESTAMP WITH TIME ZONE NOT NULL,
    PRIMARY KEY (experiment_id, attempt)
);
INSERT INTO attempts (experiment_id, attempt, state, host, job, started, ended, fail_trace, updated)
    SELECT experiment_id, 1, state, host, job, started, ended,
           CASE WHEN state IN ('FAILED', 'DIVERGED', 'KILLED') THEN detail END, updated
    FROM runs WHERE experiment_id NOT IN (SELECT experiment_id FROM attempts);

-- The attempt that was current when a record was ingested; version 2 knew only one.
ALTER TABLE metrics ADD COLUMN IF NOT EXISTS attempt INT;
UPDATE metrics SET attempt = 1 WHERE attempt IS NULL;

-- Each metric's record at its highest step, kept by every write of metrics so dashboards need no MAX over millions.
CREATE TABLE IF NOT EXISTS latest (
    experiment_id VARCHAR(255) NOT NULL,
    name          VARCHAR(255) NOT NULL,
    step          BIGINT       NOT NULL,
    "VALUE"       DOUBLE PRECISION NOT NULL,
    wall_ms       BIGINT       NOT NULL,
    PRIMARY KEY (experiment_id, name)
);
INSERT INTO latest (experiment_id, name, step, "VALUE", wall_ms)
    SELECT m.experiment_id, m.name, m.step, m."VALUE", m.wall_ms FROM metrics m
    WHERE m.step = (SELECT MAX(n.step) FROM metrics n WHERE n.experiment_id = m.experiment_id AND n.name = m.name)
      AND NOT EXISTS (SELECT 1 FROM latest l WHERE l.experiment_id = m.experiment_id AND l.name = m.name);

-- How much of an experiment's metric spool is in the store: the bytes up to the end of the last ingested line and
-- their CRC-32, written in the transaction of the rows they cover. The next ingest reads on from there when the
-- prefix is unchanged, and compares the whole spool with the stored rows when it is not (a resumed job truncated
-- it, or an earlier attempt's spool was archived).
CREATE TABLE IF NOT EXISTS spool_marks (
    experiment_id VARCHAR(255)  NOT NULL PRIMARY KEY,
    spool         VARCHAR(4000) NOT NULL,
    bytes         BIGINT        NOT NULL,
    crc           BIGINT        NOT NULL
);
