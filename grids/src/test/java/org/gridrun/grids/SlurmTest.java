package org.gridrun.grids;

import static org.gridrun.grids.Grids.assertFails;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** slurm: blocks of a grid file and of its runs, merged and validated. */
class SlurmTest {
    @TempDir
    Path dir;

    @Test
    void everyKeyIsReadInFileOrder() {
        GridFile grid = Grids.load(dir, """
                slurm:
                  partition: gpu
                  time: 12-12:00:00
                  gres: gpu:1
                  cpus-per-task: 3
                  mem: 18G
                  account: lab
                  qos: normal
                  constraint: a100
                  nodes: 1
                  ntasks: 1
                  mail-type: END,FAIL
                  mail-user: me@example.org
                  job-name: nuq
                  max-requeues: 5
                  signal-seconds: 300
                  setup: [module load java/17, source ~/env.sh]
                  env: {OMP_NUM_THREADS: 3, DATA: /scratch/data}
                  extra: [--exclusive, --requeue]
                runs:
                  r: {grid: {bits: 2}}
                """);
        SlurmSpec spec = grid.slurm("r");
        assertEquals(List.of("partition", "time", "gres", "cpus-per-task", "mem", "account", "qos", "constraint",
                "nodes", "ntasks", "mail-type", "mail-user", "job-name"), List.copyOf(spec.options().keySet()));
        assertEquals(List.of("gpu", "12-12:00:00", "gpu:1", "3", "18G", "lab", "normal", "a100", "1", "1", "END,FAIL",
                "me@example.org", "nuq"), List.copyOf(spec.options().values()));
        assertEquals(5, spec.maxRequeues());
        assertEquals(300, spec.signalSeconds());
        assertEquals(List.of("module load java/17", "source ~/env.sh"), spec.setup());
        assertEquals(List.of("OMP_NUM_THREADS", "DATA"), List.copyOf(spec.env().keySet()));
        assertEquals("3", spec.env().get("OMP_NUM_THREADS"));
        assertEquals(List.of("--exclusive", "--requeue"), spec.extra());
    }

    @Test
    void aJobAsksForGpusByGresOrByAnExtraLine() {
        assertEquals(false, SlurmSpec.empty().asksForGpus());
        assertEquals(true, spec(Map.of("gres", "gpu:1"), List.of()).asksForGpus());
        assertEquals(true, spec(Map.of("gres", "gpu:a100:2"), List.of()).asksForGpus());
        assertEquals(true, spec(Map.of("gres", "tmpdisk:100,gpu:1"), List.of()).asksForGpus());
        assertEquals(false, spec(Map.of("gres", "tmpdisk:100", "partition", "gpu"), List.of()).asksForGpus(),
                "a partition named gpu gives no GPU unless the job asks for one");
        assertEquals(true, spec(Map.of(), List.of("--exclusive", "--gpus-per-task=1")).asksForGpus());
        assertEquals(true, spec(Map.of(), List.of(" --gres=gpu:2")).asksForGpus());
        assertEquals(true, spec(Map.of(), List.of("-G 1")).asksForGpus());
        assertEquals(false, spec(Map.of(), List.of("--exclusive")).asksForGpus());
    }

    private static SlurmSpec spec(Map<String, String> options, List<String> extra) {
        return new SlurmSpec(options, 3, 120, List.of(), Map.of(), extra);
    }

    @Test
    void aRunsBlockIsMergedOverTheFiles() {
        GridFile grid = Grids.load(dir, """
                slurm:
                  partition: gpu
                  time: '60'
                  setup: [module load java/17]
                  env: {A: '1', B: '2'}
                runs:
                  long:
                    slurm: {time: 2-00:00:00, qos: long, env: {B: '3'}, setup: [], max-requeues: 0}
                    grid: {bits: 2}
                  plain: {grid: {bits: 4}}
                """);
        SlurmSpec spec = grid.slurm("long");
        assertEquals(Map.of("partition", "gpu", "time", "2-00:00:00", "qos", "long"), spec.options());
        assertEquals(List.of("partition", "time", "qos"), List.copyOf(spec.options().keySet()));
        assertEquals(Map.of("A", "1", "B", "3"), spec.env());
        assertEquals(List.of(), spec.setup());
        assertEquals(0, spec.maxRequeues());
        assertEquals(SlurmSpec.DEFAULT_SIGNAL_SECONDS, spec.signalSeconds());
        assertEquals(List.of("module load java/17"), grid.slurm("plain").setup());
    }

    @Test
    void withoutSlurmTheSpecIsEmpty() {
        GridFile grid = Grids.load(dir, "runs: {r: {grid: {bits: 2}}}\n");
        assertEquals(SlurmSpec.empty(), grid.slurm("r"));
        assertEquals(new SlurmSpec(Map.of(), 3, 120, List.of(), Map.of(), List.of()), grid.slurm("r"));
        assertEquals("no run 'q' in " + grid.path() + "; runs are: r; did you mean 'r'?",
                assertThrows(GridException.class, () -> grid.slurm("q")).getMessage());
    }

    @Test
    void slurmTimesAreSlurmsFormats() {
        for (String ok : List.of("90", "30:00", "90:30", "12:00:00", "1-12", "1-12:30", "2-00:00:00", "0")) {
            assertEquals(Optional.empty(), SlurmTime.problem(ok), ok);
        }
        String rule = "time must be a SLURM time (MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS) with hours below"
                + " 24 and minutes and seconds below 60, found ";
        assertEquals(Optional.of(rule + "'300:00:00'; write 12-12:00:00"), SlurmTime.problem("300:00:00"));
        assertEquals(Optional.of(rule + "'25:30:00'; write 1-01:30:00"), SlurmTime.problem("25:30:00"));
        for (String bad : List.of("1:60", "1-24", "1-12:60", "12:00:60", "2h", "", "1-", "-5", "1:2:3:4")) {
            assertEquals(Optional.of(rule + "'" + bad + "'"), SlurmTime.problem(bad), bad);
        }
    }

    @Test
    void badSettingsNameTheKeyAndTheRule() {
        assertFails(dir, """
                slurm:
                  partion: gpu
                  time: 300:00:00
                  mem: 18GB
                  cpus-per-task: 0
                  max-requeues: -1
                  signal-seconds: 100000
                  partition: gpu large
                  env: {1X: a, Y: }
                  extra: [exclusive]
                  setup: {a: b}
                runs:
                  r: {grid: {bits: 2}}
                """,
                "2:3: unknown slurm key 'partion'; did you mean 'partition'? (slurm takes partition, time, gres,"
                        + " cpus-per-task, mem, account, qos, constraint, nodes, ntasks, mail-type, mail-user,"
                        + " job-name, max-requeues, signal-seconds, setup, env, extra)",
                "3:9: time must be a SLURM time (MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS) with hours below"
                        + " 24 and minutes and seconds below 60, found '300:00:00'; write 12-12:00:00",
                "4:8: mem must be a positive size in megabytes, or with a unit K, M, G or T, such as 18G or 500M;"
                        + " found '18GB'",
                "5:18: cpus-per-task must be a positive integer, found '0'",
                "6:17: max-requeues must be an integer, 0 or more, found '-1'",
                "7:19: signal-seconds must be an integer from 1 to 65535, found '100000'",
                "8:14: partition must be one word, without spaces or quotes, found 'gpu large'",
                "9:9: env: '1X' is not a variable name; use letters, digits and '_', not starting with a digit",
                "9:18: env: Y takes one value (write '' for an empty one), found nothing",
                "10:11: extra takes raw sbatch options such as --exclusive, one per item; found 'exclusive'",
                "11:10: setup takes a line or a list of lines, found a mapping");
        assertFails(dir, "slurm:\n  env: {GRIDRUN_DB_SECRET: abc}\nruns: {r: {grid: {bits: 2}}}\n",
                "2:9: env: GRIDRUN_DB_SECRET must not be written into a batch script, which others may read; jobs "
                        + "read the store's secret from its file beside the store, or from the environment that "
                        + "sbatch passes on from where you submit");
        assertFails(dir, "slurm: 3\nruns: {r: {grid: {bits: 2}}}\n",
                "1:8: slurm must be a mapping of sbatch settings such as partition: gpu, found '3'");
        assertFails(dir, "runs: {r: {slurm: {tme: 5}, grid: {bits: 2}}}\n",
                "1:20: unknown slurm key 'tme'; did you mean 'time'? (slurm takes partition, time, gres,"
                        + " cpus-per-task, mem, account, qos, constraint, nodes, ntasks, mail-type, mail-user,"
                        + " job-name, max-requeues, signal-seconds, setup, env, extra)");
    }
}
