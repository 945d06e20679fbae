package dev.varroa.testfixtures.jenkins.standin;

import com.google.protobuf.util.JsonFormat;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.varroa.protocol.builds.v1.BuildEvent;
import dev.varroa.protocol.builds.v1.EventBatch;
import dev.varroa.protocol.builds.v1.EventBatchAck;
import dev.varroa.protocol.builds.v1.EventKey;
import dev.varroa.protocol.builds.v1.LogChunk;
import dev.varroa.protocol.builds.v1.LogChunkAck;
import dev.varroa.protocol.builds.v1.LogChunkBatch;
import dev.varroa.protocol.builds.v1.LogChunkBatchAck;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The mite's loopback listener as the plugin core sees it, on a free 127.0.0.1 port: the token written to its file
 * first, {@code POST /v1/events} (protobuf JSON) acknowledged event by event, {@code POST /v1/logs} (binary protobuf)
 * stored from offset 0 on. It keeps what arrived so a test can compare; the real listener lives in {@code mite/}.
 */
final class MiteLoopbackRecorder implements AutoCloseable {

    private static final JsonFormat.Printer PRINTER = JsonFormat.printer().omittingInsignificantWhitespace();

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final String token;
    private final List<BuildEvent> events = new CopyOnWriteArrayList<>();
    private final Map<String, ByteArrayOutputStream> logs = new ConcurrentHashMap<>();
    private final Map<String, Boolean> complete = new ConcurrentHashMap<>();

    private MiteLoopbackRecorder(String token) throws IOException {
        this.token = token;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(threads);
        server.createContext("/v1/events", this::events);
        server.createContext("/v1/logs", this::logs);
    }

    static MiteLoopbackRecorder start(Path tokenFile, String token) throws IOException {
        Files.writeString(tokenFile, token + "\n");
        MiteLoopbackRecorder mite = new MiteLoopbackRecorder(token);
        mite.server.start();
        return mite;
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    List<BuildEvent> events(String runId) {
        return events.stream().filter(event -> event.getRunId().equals(runId)).toList();
    }

    byte[] log(String runId) {
        ByteArrayOutputStream log = logs.get(runId);
        return log == null ? new byte[0] : log.toByteArray();
    }

    boolean logComplete(String runId) {
        return complete.getOrDefault(runId, false);
    }

    private boolean authorized(HttpExchange exchange) throws IOException {
        if (("Bearer " + token).equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
            return true;
        }
        reply(exchange, 401, "application/json", "{\"error\":\"wrong loopback token\"}".getBytes(StandardCharsets.UTF_8));
        return false;
    }

    private void events(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!authorized(exchange)) {
                return;
            }
            EventBatch.Builder batch = EventBatch.newBuilder();
            JsonFormat.parser().merge(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8), batch);
            EventBatchAck.Builder ack = EventBatchAck.newBuilder();
            for (BuildEvent event : batch.getEventsList()) {
                events.add(event);
                ack.addAcknowledged(EventKey.newBuilder().setRunId(event.getRunId()).setSequence(event.getSequence()));
            }
            reply(exchange, 200, "application/json", PRINTER.print(ack).getBytes(StandardCharsets.UTF_8));
        }
    }

    private void logs(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!authorized(exchange)) {
                return;
            }
            LogChunkBatch batch = LogChunkBatch.parseFrom(exchange.getRequestBody().readAllBytes());
            LogChunkBatchAck.Builder acks = LogChunkBatchAck.newBuilder();
            for (LogChunk chunk : batch.getChunksList()) {
                acks.addAcks(store(chunk));
            }
            reply(exchange, 200, "application/x-protobuf", acks.build().toByteArray());
        }
    }

    private synchronized LogChunkAck store(LogChunk chunk) {
        ByteArrayOutputStream held = logs.computeIfAbsent(chunk.getRunId(), run -> new ByteArrayOutputStream());
        LogChunkAck.Builder ack = LogChunkAck.newBuilder().setRunId(chunk.getRunId()).setOffset(chunk.getOffset());
        long end = chunk.getOffset() + chunk.getData().size();
        if (chunk.getOffset() > held.size()) {
            return ack.setResult(LogChunkAck.Result.GAP).setStoredThrough(held.size()).build();
        }
        if (end > held.size()) {
            byte[] data = chunk.getData().toByteArray();
            int skip = (int) (held.size() - chunk.getOffset());
            held.write(data, skip, data.length - skip);
        }
        if (chunk.getLast()) {
            complete.put(chunk.getRunId(), true);
        }
        return ack.setResult(LogChunkAck.Result.STORED).setStoredThrough(held.size())
                .setComplete(logComplete(chunk.getRunId())).build();
    }

    private static void reply(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
