-- gridrun results store, schema version 1.
-- Applied once, in one transaction, by org.gridrun.analysis.Migrations; never edit an applied script:
-- add V2__<what>.sql and list it in Migrations.SCRIPTS instead.
-- KEY and VALUE are H2 keywords, so those columns are quoted (in upper case, H2's folding of unquoted names).
-- params and metrics have no foreign key on purpose: H2 gives a foreign key its own index on experiment_id and its
-- optimizer then picks that index over the primary key for MERGE, scanning every row of the experiment per record.
-- The store writes an experiment row in the same transaction as its params and metrics instead.

-- One row per experiment (the config hash); params and config are JSON objects in key order.
CREATE TABLE IF NOT EXISTS experiments (
    id       VARCHAR(255)  NOT NULL PRIMARY KEY,
    grid     VARCHAR(255)  NOT NULL,
    run      VARCHAR(255)  NOT NULL,
    name     VARCHAR(1000) NOT NULL,
    run_dir  VARCHAR(4000),
    params   VARCHAR       NOT NULL,
    config   VARCHAR       NOT NULL,
    created  TIMESTAMP WITH TIME ZONE DEFAULT CURRENT_TIMESTAMP NOT NULL
);
CREATE INDEX IF NOT EXISTS experiments_grid_run ON experiments (grid, run, name);

-- The resolved config, one row per key, as text: WHERE "KEY" = 'bits' AND "VALUE" = '4'.
CREATE TABLE IF NOT EXISTS params (
    experiment_id VARCHAR(255) NOT NULL,
    "KEY"         VARCHAR(255) NOT NULL,
    "VALUE"       VARCHAR,
    PRIMARY KEY (experiment_id, "KEY")
);

-- The current attempt of each experiment; updated is the time of the latest state, so older news never wins.
CREATE TABLE IF NOT EXISTS runs (
    experiment_id VARCHAR(255) NOT NULL PRIMARY KEY REFERENCES experiments (id) ON DELETE CASCADE,
    state         VARCHAR(16)  NOT NULL,
    host          VARCHAR(255),
    started       TIMESTAMP WITH TIME ZONE,
    ended         TIMESTAMP WITH TIME ZONE,
    detail        VARCHAR,
    updated       TIMESTAMP WITH TIME ZONE NOT NULL
);

-- Every metric record; a step logged twice keeps the later value.
CREATE TABLE IF NOT EXISTS metrics (
    experiment_id VARCHAR(255) NOT NULL,
    name          VARCHAR(255) NOT NULL,
    step          BIGINT       NOT NULL,
    "VALUE"       DOUBLE PRECISION NOT NULL,
    wall_ms       BIGINT       NOT NULL,
    PRIMARY KEY (experiment_id, name, step)
);
