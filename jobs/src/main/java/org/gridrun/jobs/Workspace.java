package org.gridrun.jobs;

import java.nio.file.Path;

/**
 * Where a grid run reads and writes, relative to one working directory.
 *
 * <p>Grids are read from {@code grids/}, run directories go to {@code runs/<grid>/<run>/<experiment>/}, the results
 * store is {@code runs/gridrun.mv.db} unless overridden, and reports go to {@code reports/<grid>/}.
 *
 * @param root     the working directory
 * @param database the results store's base path (H2 appends {@code .mv.db})
 */
public record Workspace(Path root, Path database) {

    /** The environment variable that overrides the store location. */
    public static final String DATABASE_ENV = "GRIDRUN_DB";

    /** A workspace at {@code root}, with the store at {@code database} or, when null, its default place. */
    public static Workspace at(Path root, Path database) {
        Path base = root.toAbsolutePath().normalize();
        Path db = database;
        if (db == null) {
            String env = System.getenv(DATABASE_ENV);
            db = env != null && !env.isBlank() ? Path.of(env) : base.resolve("runs").resolve("gridrun");
        }
        String file = db.getFileName().toString();
        if (file.endsWith(".mv.db")) {
            db = db.resolveSibling(file.substring(0, file.length() - ".mv.db".length()));
        }
        return new Workspace(base, base.resolve(db).normalize());
    }

    public Path gridsDir() {
        return root.resolve("grids");
    }

    public Path runsDir() {
        return root.resolve("runs");
    }

    /** The folder of one experiment. */
    public Path runDir(String grid, String run, String experimentName) {
        return runsDir().resolve(grid).resolve(run).resolve(experimentName);
    }

    /** The report site of one grid. */
    public Path reportDir(String grid) {
        return root.resolve("reports").resolve(grid);
    }
}
