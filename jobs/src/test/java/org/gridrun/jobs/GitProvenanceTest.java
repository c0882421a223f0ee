package org.gridrun.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GitProvenanceTest {
    private static final String SHA = "0123456789abcdef0123456789abcdef01234567";

    @TempDir
    Path tmp;

    @Test
    void aFilledBuildPropertiesFileNamesTheCommit() {
        assertEquals(Optional.of(new GitProvenance(SHA, true)), baked("git.commit=" + SHA + "\ngit.dirty=true\n"));
        assertEquals("git " + SHA + "+dirty", new GitProvenance(SHA, true).note());
        assertEquals("git " + SHA, new GitProvenance(SHA, false).note());
    }

    @Test
    void anUnfilledOrBrokenBuildPropertiesFileNamesNothing() {
        assertEquals(Optional.empty(), baked("git.commit=${gridrun.git.commit}\ngit.dirty=${gridrun.git.dirty}\n"));
        assertEquals(Optional.empty(), baked("git.commit=\ngit.dirty=\n"));
        assertEquals(Optional.empty(), baked("git.commit=" + SHA + "\ngit.dirty=maybe\n"));
        assertEquals(Optional.empty(), GitProvenance.baked(null));
    }

    @Test
    void aCheckoutNamesItsHeadAndWhetherItsCodeChanged() throws Exception {
        Path repo = Files.createDirectories(tmp.resolve("repo"));
        git(repo, "init", "-q");
        Path code = Files.createDirectories(repo.resolve("engine/src/main/java")).resolve("A.java");
        Path grid = Files.createDirectories(repo.resolve("grids")).resolve("g.yaml");
        Files.writeString(code, "one\n");
        Files.writeString(grid, "runs: {}\n");
        git(repo, "add", ".");
        git(repo, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", "first");
        String head = git(repo, "rev-parse", "HEAD").trim();
        Path jar = Files.createDirectories(repo.resolve("target")).resolve("grid-run.jar");
        Files.writeString(jar, "not really a jar");

        assertEquals(Optional.of(new GitProvenance(head, false)), GitProvenance.ofCheckout(jar));
        Files.writeString(grid, "runs: {a: {}}\n");
        assertEquals(Optional.of(new GitProvenance(head, false)), GitProvenance.ofCheckout(jar),
                "an edited grid is not a change of the code");
        Files.writeString(code, "two\n");
        assertEquals(Optional.of(new GitProvenance(head, true)), GitProvenance.ofCheckout(jar));
    }

    @Test
    void outsideAnyCheckoutThereIsNoProvenance() throws IOException {
        Path lonely = Files.createDirectories(tmp.resolve("lonely"));
        Files.writeString(lonely.resolve(".git"), "gitdir: /nonexistent\n");
        assertEquals(Optional.empty(), GitProvenance.ofCheckout(lonely));
    }

    @Test
    void theseClassesNameTheCheckoutTheyWereBuiltIn() throws Exception {
        String head = git(Path.of("").toAbsolutePath(), "rev-parse", "HEAD").trim();
        GitProvenance build = GitProvenance.ofThisBuild().orElseThrow();
        assertEquals(head, build.commit());
        assertTrue(build.commit().matches("[0-9a-f]{40}"), build.commit());
    }

    private static Optional<GitProvenance> baked(String properties) {
        return GitProvenance.baked(new ByteArrayInputStream(properties.getBytes(StandardCharsets.UTF_8)));
    }

    private static String git(Path dir, String... args) throws Exception {
        String[] command = new String[args.length + 3];
        command[0] = "git";
        command[1] = "-C";
        command[2] = dir.toString();
        System.arraycopy(args, 0, command, 3, args.length);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), String.join(" ", command) + ": " + out);
        return out;
    }
}
