package org.gridrun.jobs.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * squeue's output, recorded with {@code squeue -h -j <ids> -o '%i|%T|%u'} from SLURM 22.05.8 (Debian 12) started by
 * {@code scripts/slurm-local.sh}: array 19 is {@code sbatch --array=0-3%2 --wrap 'sleep 20'}, job 20 a plain
 * {@code sleep 15} behind it; arrays 24 and 25 are held ({@code --array=0-999:3,1000} and {@code --array=7}).
 */
class SqueueParserTest {

    @Test
    void aThrottledArrayBeforeItStartsIsOnePendingLineForAllTasks() {
        assertEquals(List.of("19_0 PENDING", "19_1 PENDING", "19_2 PENDING", "19_3 PENDING", "20 PENDING"),
                summary(SqueueParser.parse(recorded("squeue-array-submitted.txt"))));
    }

    @Test
    void aThrottledArrayRunningTwoTasksListsTheRestCompressed() {
        List<QueuedTask> tasks = SqueueParser.parse(recorded("squeue-array-throttled.txt"));
        assertEquals(List.of("19_2 PENDING", "19_3 PENDING", "20 PENDING", "19_0 RUNNING", "19_1 RUNNING"),
                summary(tasks));
        QueuedTask plain = tasks.get(2);
        assertEquals(new QueuedTask("20", QueuedTask.NOT_AN_ARRAY, "PENDING", "root"), plain);
        assertFalse(plain.isArrayTask());
        assertEquals("20", plain.id());
        assertEquals(new QueuedTask("19", 3, "PENDING", "root"), tasks.get(1));
    }

    @Test
    void aCancelledRunningTaskIsCompletingAndStillInFlight() {
        List<QueuedTask> tasks = SqueueParser.parse(recorded("squeue-array-cancel-running-task.txt"));
        assertEquals(List.of("19_1 COMPLETING", "19_2 PENDING", "19_3 PENDING", "20 PENDING", "19_0 RUNNING"),
                summary(tasks));
        assertTrue(tasks.stream().allMatch(QueuedTask::inFlight));
    }

    @Test
    void aLonePendingTaskIsWrittenWithoutBrackets() {
        assertEquals(List.of("19_3 PENDING", "20 PENDING", "19_2 RUNNING", "19_0 RUNNING"),
                summary(SqueueParser.parse(recorded("squeue-array-after-cancel.txt"))));
    }

    @Test
    void aCancelledPendingTaskDisappears() {
        assertEquals(List.of("20 PENDING", "19_2 RUNNING", "19_0 RUNNING"),
                summary(SqueueParser.parse(recorded("squeue-array-cancel-pending-task.txt"))));
    }

    @Test
    void endedTasksAreListedWithStatesAndAreNotInFlight() {
        List<QueuedTask> tasks = SqueueParser.parse(recorded("squeue-all-states.txt"));
        assertEquals(List.of("19_3 CANCELLED", "19_1 CANCELLED", "20 PENDING", "19_2 RUNNING", "19_0 RUNNING"),
                summary(tasks));
        assertEquals(List.of(false, false, true, true, true), tasks.stream().map(QueuedTask::inFlight).toList());
    }

    @Test
    void aSparseArrayWithASingleBracketedIndexIsExpandedInFull() {
        List<QueuedTask> tasks = SqueueParser.parse(recorded("squeue-held-sparse-full.txt"));
        List<Integer> expected = IntStream.concat(IntStream.of(7),
                IntStream.concat(IntStream.rangeClosed(0, 333).map(i -> 3 * i), IntStream.of(1000)))
                .boxed().toList();
        assertEquals(expected, tasks.stream().map(QueuedTask::taskId).toList());
        assertEquals("25", tasks.get(0).jobId());
        assertTrue(tasks.subList(1, tasks.size()).stream().allMatch(t -> t.jobId().equals("24")));
    }

    @Test
    void aTruncatedExpressionIsSkippedNotHalfRead() {
        // squeue cuts expressions at 64 characters unless SLURM_BITSTR_LEN=0, without closing the bracket
        List<QueuedTask> tasks = SqueueParser.parse(recorded("squeue-held-sparse-truncated.txt"));
        assertEquals(List.of("25_7 PENDING"), summary(tasks));
    }

    @Test
    void everyNotationOfTheBriefExpandsToItsTasks() {
        String output = String.join("\n", "123_4|RUNNING|ann", "123_[5-10%2]|PENDING|ann", "124_[1,3,5-7]|PENDING|ann",
                "125_[8-9]|CONFIGURING|ann", "126_[0-9:4]|PENDING|ann", "456|RUNNING|bob", "");
        assertEquals(List.of("123_4 RUNNING", "123_5 PENDING", "123_6 PENDING", "123_7 PENDING", "123_8 PENDING",
                "123_9 PENDING", "123_10 PENDING", "124_1 PENDING", "124_3 PENDING", "124_5 PENDING", "124_6 PENDING",
                "124_7 PENDING", "125_8 CONFIGURING", "125_9 CONFIGURING", "126_0 PENDING", "126_4 PENDING",
                "126_8 PENDING", "456 RUNNING"), summary(SqueueParser.parse(output)));
    }

    @Test
    void otherUsersLinesAreReadWithTheirUser() {
        List<QueuedTask> tasks = SqueueParser.parse("7_[0-1]|PENDING|someone.else\n8|RUNNING|root\n");
        assertEquals(List.of("someone.else", "someone.else", "root"), tasks.stream().map(QueuedTask::user).toList());
    }

    @Test
    void malformedLinesAreSkippedAndTheRestIsRead() {
        String output = String.join("\n",
                "JOBID|STATE|USER",
                "squeue: error: Socket timed out on send/recv operation",
                "",
                "   ",
                "123_[5-|PENDING|ann",
                "123_[9-5]|PENDING|ann",
                "123_[1,,2]|PENDING|ann",
                "123_[1-3%]|PENDING|ann",
                "123_[1-3:0]|PENDING|ann",
                "123_[]|PENDING|ann",
                "123_99999999999|RUNNING|ann",
                "77+1|RUNNING|ann",
                "abc|RUNNING|ann",
                "124|running|ann",
                "125|RUNNING|",
                "126|RUNNING",
                "  127_2|RUNNING|ann  ",
                "128|PENDING|ann|extra fields are ignored");
        assertEquals(List.of("127_2 RUNNING", "128 PENDING"), summary(SqueueParser.parse(output)));
    }

    @Test
    void windowsLineEndsAndAnEmptyOutputAreFine() {
        List<QueuedTask> tasks = SqueueParser.parse("1|RUNNING|a\r\n2_3|PENDING|a\r\n");
        assertEquals(List.of("1 RUNNING", "2_3 PENDING"), summary(tasks));
        assertTrue(SqueueParser.parse("").isEmpty());
    }

    @Test
    void unknownStatesCountAsInFlightSoATaskIsNeverLostToANewStateName() {
        assertTrue(new QueuedTask("1", 0, "SOME_NEW_STATE", "a").inFlight());
        assertTrue(new QueuedTask("1", 0, "REQUEUE_HOLD", "a").inFlight());
        assertFalse(new QueuedTask("1", 0, "TIMEOUT", "a").inFlight());
        assertEquals("1_0", new QueuedTask("1", 0, "PENDING", "a").id());
    }

    private static List<String> summary(List<QueuedTask> tasks) {
        return tasks.stream().map(t -> t.id() + " " + t.state()).collect(Collectors.toList());
    }

    static String recorded(String name) {
        try (InputStream in = SqueueParserTest.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
