package org.gridrun.jobs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * The git commit a gridrun build came from, and whether its work tree had uncommitted changes: what each attempt
 * records so that a result can be traced to the code that produced it.
 *
 * <p>{@link #ofThisBuild()} prefers what the build baked into {@code build.properties} (./grid-run passes the commit
 * to Maven); a build without it (a plain {@code mvn package}, the tests) asks git about the checkout that holds this
 * jar or classes directory. Nothing here throws: where neither knows, there is no provenance.
 *
 * @param commit the full commit id
 * @param dirty  whether the code (poms, src/main) had uncommitted changes: edited grids do not count
 */
public record GitProvenance(String commit, boolean dirty) {
    private static final Pattern COMMIT = Pattern.compile("[0-9a-f]{7,40}");
    private static final String RESOURCE = "/org/gridrun/jobs/build.properties";
    private static final long GIT_TIMEOUT_SECONDS = 10;
    private static volatile Optional<GitProvenance> thisBuild;

    /** The provenance of the running gridrun, looked up once per process. */
    public static Optional<GitProvenance> ofThisBuild() {
        Optional<GitProvenance> known = thisBuild;
        if (known == null) {
            known = baked(GitProvenance.class.getResourceAsStream(RESOURCE)).or(() -> codeLocation()
                    .flatMap(GitProvenance::ofCheckout));
            thisBuild = known;
        }
        return known;
    }

    /** What a {@code build.properties} stream says; empty when absent or left unfilled. */
    static Optional<GitProvenance> baked(InputStream in) {
        if (in == null) {
            return Optional.empty();
        }
        Properties properties = new Properties();
        try (in) {
            properties.load(in);
        } catch (IOException e) {
            return Optional.empty();
        }
        String commit = properties.getProperty("git.commit", "").trim();
        String dirty = properties.getProperty("git.dirty", "").trim();
        return COMMIT.matcher(commit).matches() && (dirty.equals("true") || dirty.equals("false"))
                ? Optional.of(new GitProvenance(commit, Boolean.parseBoolean(dirty))) : Optional.empty();
    }

    /** The commit checked out in the git work tree that holds {@code path}; empty when git cannot tell. */
    static Optional<GitProvenance> ofCheckout(Path path) {
        Path dir = Files.isDirectory(path) ? path : path.getParent();
        if (dir == null) {
            return Optional.empty();
        }
        Optional<String> commit = git(dir, "rev-parse", "HEAD").map(String::trim);
        Optional<String> changes = git(dir, "status", "--porcelain", "--untracked-files=no", "--", ":(top)pom.xml",
                ":(top)*/pom.xml", ":(top)*/src/main/*");
        return commit.filter(c -> COMMIT.matcher(c).matches()).flatMap(c -> changes
                .map(s -> new GitProvenance(c, !s.isBlank())));
    }

    /** How a status entry names this provenance: {@code git <commit>}, with {@code +dirty} for changed work trees. */
    public String note() {
        return "git " + commit + (dirty ? "+dirty" : "");
    }

    private static Optional<Path> codeLocation() {
        try {
            return Optional.of(Path.of(GitProvenance.class.getProtectionDomain().getCodeSource().getLocation()
                    .toURI()));
        } catch (URISyntaxException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> git(Path dir, String... args) {
        List<String> command = new ArrayList<>(List.of("git", "-C", dir.toString()));
        command.addAll(List.of(args));
        try {
            Process git = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            byte[] out = git.getInputStream().readAllBytes();
            if (!git.waitFor(GIT_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                git.destroyForcibly();
                return Optional.empty();
            }
            return git.exitValue() == 0 ? Optional.of(new String(out, StandardCharsets.UTF_8)) : Optional.empty();
        } catch (IOException | UncheckedIOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
