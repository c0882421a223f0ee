package org.gridrun.reports;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A headless Chromium driven through the Chrome DevTools Protocol over {@link java.net.http.WebSocket}: commands
 * with their replies, and the events the page sends, kept in arrival order.
 *
 * <p>Chromium is started with {@code --remote-debugging-port=0}; the port it chose is read from the
 * {@code DevTools listening on ws://…} line of its stderr, and the protocol talks to its first page target.
 */
final class DevTools implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://([^/\\s]+)/\\S+)");
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private final ObjectMapper json = new ObjectMapper();
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> replies = new ConcurrentHashMap<>();
    private final List<JsonNode> events = new CopyOnWriteArrayList<>();
    private final Process chromium;
    private WebSocket socket;

    private DevTools(Process chromium) {
        this.chromium = chromium;
    }

    /** Starts {@code binary} headless with the profile {@code profile} and connects to its blank page. */
    static DevTools launch(String binary, Path profile) throws Exception {
        Process process = new ProcessBuilder(binary, "--headless=new", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--remote-debugging-port=0", "--user-data-dir=" + profile, "--window-size=1280,900",
                "about:blank").redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        DevTools tools = new DevTools(process);
        try {
            String host = tools.listeningHost();
            tools.connect(tools.pageSocket(host));
            return tools;
        } catch (Exception e) {
            tools.close();
            throw e;
        }
    }

    /** Sends {@code method} with {@code params} and waits for its result; a protocol error throws. */
    JsonNode call(String method, Map<String, ?> params) throws Exception {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> reply = new CompletableFuture<>();
        replies.put(id, reply);
        ObjectNode message = json.createObjectNode().put("id", id).put("method", method);
        message.set("params", json.valueToTree(params));
        socket.sendText(json.writeValueAsString(message), true).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        JsonNode answer = reply.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        if (answer.has("error")) {
            throw new IllegalStateException(method + " failed: " + answer.get("error"));
        }
        return answer.get("result");
    }

    /** Evaluates {@code expression} in the page and returns its value as JSON. */
    JsonNode evaluate(String expression) throws Exception {
        JsonNode result = call("Runtime.evaluate", Map.of("expression", expression, "returnByValue", true));
        if (result.has("exceptionDetails")) {
            throw new IllegalStateException(expression + " threw: " + result.get("exceptionDetails"));
        }
        return result.path("result").path("value");
    }

    /** How many events have arrived so far: a mark to wait for later ones. */
    int mark() {
        return events.size();
    }

    /** The events since {@code mark}. */
    List<JsonNode> eventsSince(int mark) {
        // A snapshot first: a sub-list of the live list fails when an event arrives while it is copied.
        List<JsonNode> snapshot = List.copyOf(events);
        return snapshot.subList(mark, snapshot.size());
    }

    /** Waits for an event named {@code method} after {@code mark}. */
    JsonNode await(String method, int mark) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        Predicate<JsonNode> named = e -> method.equals(e.path("method").asText());
        while (System.nanoTime() < deadline) {
            for (JsonNode e : eventsSince(mark)) {
                if (named.test(e)) {
                    return e;
                }
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("no " + method + " within " + PATIENCE);
    }

    /**
     * Stops Chromium and every process it started (renderers, the crash handler), and waits for them: a child still
     * writing to the profile made the test's temporary directory fail to delete.
     */
    @Override
    public void close() {
        if (socket != null) {
            socket.abort();
        }
        List<ProcessHandle> children = chromium.descendants().toList();
        stop(chromium.toHandle());
        children.forEach(DevTools::stop);
    }

    private static void stop(ProcessHandle process) {
        process.destroy();
        try {
            process.onExit().get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            process.destroyForcibly();
        }
    }

    /** Reads stderr up to the DevTools line, then keeps draining it so Chromium never blocks on a full pipe. */
    private String listeningHost() throws IOException {
        BufferedReader err = new BufferedReader(new InputStreamReader(chromium.getErrorStream(),
                StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        for (String line = err.readLine(); line != null; line = err.readLine()) {
            Matcher m = LISTENING.matcher(line);
            if (m.find()) {
                Thread drain = new Thread(() -> {
                    try {
                        while (err.readLine() != null) {
                            // discarded
                        }
                    } catch (IOException e) {
                        // chromium is gone
                    }
                }, "chromium-stderr");
                drain.setDaemon(true);
                drain.start();
                return m.group(2);
            }
            seen.append(line).append('\n');
        }
        throw new IOException("chromium exited without a DevTools URL; its stderr:\n" + seen);
    }

    private String pageSocket(String host) throws Exception {
        HttpResponse<String> list = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://" + host + "/json/list")).timeout(PATIENCE).build(),
                HttpResponse.BodyHandlers.ofString());
        for (JsonNode target : json.readTree(list.body())) {
            if ("page".equals(target.path("type").asText())) {
                return target.path("webSocketDebuggerUrl").asText();
            }
        }
        throw new IOException("chromium lists no page target: " + list.body());
    }

    private void connect(String url) throws Exception {
        socket = HttpClient.newHttpClient().newWebSocketBuilder().buildAsync(URI.create(url), new Listener())
                .get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
    }

    /** Joins message fragments and routes replies (with an id) and events (without). */
    private final class Listener implements WebSocket.Listener {
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                try {
                    JsonNode message = json.readTree(partial.toString());
                    if (message.has("id")) {
                        CompletableFuture<JsonNode> reply = replies.remove(message.get("id").asInt());
                        if (reply != null) {
                            reply.complete(message);
                        }
                    } else {
                        events.add(message);
                    }
                } catch (IOException e) {
                    events.add(json.createObjectNode().put("method", "unparsable").put("text", partial.toString()));
                }
                partial.setLength(0);
            }
            webSocket.request(1);
            return null;
        }
    }
}
