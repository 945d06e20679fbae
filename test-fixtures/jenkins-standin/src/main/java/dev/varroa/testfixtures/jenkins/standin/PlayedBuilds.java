package dev.varroa.testfixtures.jenkins.standin;

import dev.varroa.plugin.PluginCore;
import dev.varroa.plugin.events.BuildEventEmitter;
import dev.varroa.plugin.logs.ConsoleLogSink;
import dev.varroa.testfixtures.jenkins.JenkinsFixture;
import dev.varroa.testfixtures.jenkins.QueuedItem;
import dev.varroa.testfixtures.jenkins.RunningBuild;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;

/**
 * Builds played through the plugin core the way the plugin's Jenkins glue reports a run (QueueEvents, RunEvents,
 * StageEvents, FreestyleLogCopy): RunQueued, RunStarted, two stages, a test summary, RunCompleted and RunFinalized,
 * the console log written to {@code jobs/<job>/builds/<n>/log} through the plugin's log sink. Each run holds a one-off
 * executor of the fixture while it plays, so the mite's drain sees it. Numbers go on across restarts
 * ({@code jobs/<job>/nextBuildNumber}); a run a stop interrupted is finished ABORTED at the next start, as Jenkins
 * loads a Freestyle build that was running when it died.
 */
final class PlayedBuilds implements AutoCloseable {

    static final String RUN_FILE = "varroa-standin-run.properties";
    static final String NEXT_BUILD_NUMBER = "nextBuildNumber";
    static final Set<String> RESULTS = Set.of("SUCCESS", "UNSTABLE", "FAILURE", "ABORTED", "NOT_BUILT");
    static final List<String> STAGES = List.of("Build", "Test");
    static final int TESTS = 42;
    static final int TESTS_SKIPPED = 1;
    // Jenkins#checkGoodName's unsafe characters; a '/' separates folders in a full name.
    private static final String UNSAFE_NAME_CHARACTERS = "?*\\%!@#$^&|<>[]:;";
    static final String CAUSE = "Started by the Varroa Jenkins stand-in (POST /varroa-standin/builds)";

    /** A job's build request's parameter that picks the played run's result (default SUCCESS). */
    static final String RESULT_PARAMETER = "VARROA_STANDIN_RESULT";
    /** A job's build request's parameter that picks the played run's number of log lines. */
    static final String LINES_PARAMETER = "VARROA_STANDIN_LINES";
    /** A job's build request's parameter that picks how many seconds the played run takes. */
    static final String SECONDS_PARAMETER = "VARROA_STANDIN_SECONDS";
    /** A requested build is short: enough lines and time for a follower to see it run, then SUCCESS. */
    static final int REQUESTED_BUILD_LINES = 20;
    static final Duration REQUESTED_BUILD_DURATION = Duration.ofSeconds(2);
    // What Cause.UserIdCause says for the mite's bearer (sub=mite).
    static final String REQUESTED_CAUSE = "Started by user mite";

    /**
     * What to play: the job's full name, how many log lines, spread over how long, ending with which result; the
     * first log line is the cause.
     */
    record Request(String job, int lines, Duration duration, String result, String cause) {
        Request(String job, int lines, Duration duration, String result) {
            this(job, lines, duration, result, CAUSE);
        }

        Request {
            checkJobName(job);
            if (lines < 1) {
                throw new IllegalArgumentException("lines=" + lines + ": a played build writes at least one log line");
            }
            if (duration.isNegative()) {
                throw new IllegalArgumentException("seconds=" + duration.toSeconds() + ": a build cannot take negative time");
            }
            if (!RESULTS.contains(result)) {
                throw new IllegalArgumentException("result=" + result + " is not a Jenkins result; use one of " + RESULTS);
            }
        }
    }

    private final JenkinsFixture jenkins;
    private final PluginCore core;
    private final Path home;
    private final Map<String, PlayedRun> runs = new ConcurrentHashMap<>();
    private final ExecutorService players = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "jenkins-standin-build");
        thread.setDaemon(true);
        return thread;
    });

    private PlayedBuilds(JenkinsFixture jenkins, PluginCore core, Path home) {
        this.jenkins = jenkins;
        this.core = core;
        this.home = home;
    }

    /** Loads the jobs' next build numbers and finishes the runs a stop interrupted, as Jenkins does at start. */
    static PlayedBuilds open(JenkinsFixture jenkins, PluginCore core, Path home) throws IOException {
        PlayedBuilds builds = new PlayedBuilds(jenkins, core, home);
        Path jobs = home.resolve("jobs");
        if (Files.isDirectory(jobs)) {
            List<Path> found;
            try (Stream<Path> files = Files.walk(jobs)) {
                found = files.filter(Files::isRegularFile).sorted().toList();
            }
            for (Path file : found) {
                String name = file.getFileName().toString();
                if (name.equals(NEXT_BUILD_NUMBER)) {
                    jenkins.nextBuildNumber(jobName(jobs, file.getParent()),
                            Integer.parseInt(Files.readString(file, StandardCharsets.US_ASCII).strip()));
                } else if (name.equals(RUN_FILE)) {
                    builds.load(jobs, file);
                }
            }
        }
        return builds;
    }

    /** Queues the build, starts it on a one-off executor and plays the rest in the background; answers once it runs. */
    PlayedRun start(Request request) throws IOException {
        return start(request, jenkins.enqueue(request.job()));
    }

    /**
     * Plays the build a {@code build}/{@code buildWithParameters} request queued, its RunQueued event carrying the
     * item's id (the one the request's Location names). {@value #RESULT_PARAMETER}, {@value #LINES_PARAMETER} and
     * {@value #SECONDS_PARAMETER} shape it; a value that cannot be played makes a one-line FAILURE run saying why.
     */
    void startRequested(QueuedItem item) {
        Map<String, String> parameters = item.parameters();
        Request request;
        try {
            checkJobName(item.jobName());
        } catch (IllegalArgumentException e) {
            log("event=standin_build_request_refused job=\"" + item.jobName() + "\" queue_id=" + item.id() + " error=\""
                    + e.getMessage() + "\"");
            item.leave();
            return;
        }
        try {
            String result = parameters.getOrDefault(RESULT_PARAMETER, "SUCCESS").strip().toUpperCase(Locale.ROOT);
            if (!RESULTS.contains(result)) {
                throw new IllegalArgumentException(RESULT_PARAMETER + "=" + parameters.get(RESULT_PARAMETER)
                        + " is not a Jenkins result; use one of " + RESULTS);
            }
            int lines = number(parameters, LINES_PARAMETER, REQUESTED_BUILD_LINES);
            if (lines < 1) {
                throw new IllegalArgumentException(LINES_PARAMETER + "=" + lines + ": a played build writes at least one line");
            }
            int seconds = number(parameters, SECONDS_PARAMETER, (int) REQUESTED_BUILD_DURATION.toSeconds());
            if (seconds < 0) {
                throw new IllegalArgumentException(SECONDS_PARAMETER + "=" + seconds + ": a build cannot take negative time");
            }
            request = new Request(item.jobName(), lines, Duration.ofSeconds(seconds), result, REQUESTED_CAUSE);
        } catch (IllegalArgumentException e) {
            request = new Request(item.jobName(), 1, Duration.ZERO, "FAILURE", REQUESTED_CAUSE + "; the stand-in cannot "
                    + "play this build as asked: " + e.getMessage());
        }
        try {
            start(request, item);
        } catch (IOException | RuntimeException e) {
            log("event=standin_build_request_failed job=\"" + item.jobName() + "\" queue_id=" + item.id() + " error=\""
                    + e + "\"");
            item.leave();
        }
    }

    private static int number(Map<String, String> parameters, String name, int otherwise) {
        String value = parameters.get(name);
        if (value == null || value.isBlank()) {
            return otherwise;
        }
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + "=" + value + " is not a whole number");
        }
    }

    private PlayedRun start(Request request, QueuedItem item) throws IOException {
        String runId = BuildEventEmitter.newRunId();
        BuildEventEmitter events = core.events();
        long queuedAtMillis = System.currentTimeMillis();
        events.runQueued(runId, request.job(), item.id(), request.cause());
        RunningBuild build = jenkins.startBuild(request.job(), true);
        item.leave();
        Path buildDir = jobDir(request.job()).resolve("builds").resolve(Integer.toString(build.number()));
        Files.createDirectories(buildDir);
        Files.writeString(jobDir(request.job()).resolve(NEXT_BUILD_NUMBER), (build.number() + 1) + "\n",
                StandardCharsets.US_ASCII);
        PlayedRun run = new PlayedRun(runId, request.job(), build.number(), PlayedRun.RUNNING, "", 0);
        writeRunFile(buildDir, run);
        runs.put(runId, run);
        events.runStarted(runId, request.job(), build.number(), "built-in",
                System.currentTimeMillis() - queuedAtMillis, request.cause());
        log("event=standin_build_started job=\"" + request.job() + "\" build=" + build.number() + " run_id=" + runId
                + " queue_id=" + item.id()
                + " lines=" + request.lines() + " seconds=" + request.duration().toSeconds());
        players.submit(() -> play(request, run, build, buildDir));
        return run;
    }

    Optional<PlayedRun> run(String runId) {
        return Optional.ofNullable(runs.get(runId));
    }

    List<PlayedRun> runs() {
        List<PlayedRun> all = new ArrayList<>(runs.values());
        all.sort(Comparator.comparing(PlayedRun::job).thenComparing(PlayedRun::number));
        return all;
    }

    /** Stops playing: a run still going stays "running" on disk and is finished ABORTED at the next start. */
    @Override
    public void close() throws InterruptedException {
        players.shutdownNow();
        // the players stop at their next line; the plugin core closes only after they did
        if (!players.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS)) {
            log("event=standin_build_players_still_running message=\"a played build did not stop within 10 s\"");
        }
    }

    private void play(Request request, PlayedRun started, RunningBuild build, Path buildDir) {
        String runId = started.runId();
        String job = request.job();
        BuildEventEmitter events = core.events();
        long startedNanos = System.nanoTime();
        long written = 0;
        try (OutputStream own = Files.newOutputStream(buildDir.resolve("log"));
             ConsoleLogSink sink = core.log(runId, job).sink(own)) {
            // the cause, the stages' lines, the result: the build's own pace spreads them over the requested duration
            int middle = Math.max(0, request.lines() - 2);
            long pauseNanos = request.duration().toNanos() / request.lines();
            written += line(sink, request.cause(), pauseNanos);
            int line = 0;
            for (int stage = 0; stage < STAGES.size(); stage++) {
                events.stageStarted(runId, job, stageId(stage), STAGES.get(stage), "");
                int end = middle * (stage + 1) / STAGES.size();
                for (; line < end; line++) {
                    written += line(sink, String.format(Locale.ROOT,
                            "[%s] line %06d of %s: compiling dev/varroa/standin/Module%03d.java",
                            STAGES.get(stage).toLowerCase(Locale.ROOT), line + 1, job, line % 997), pauseNanos);
                    runs.put(runId, started.with(PlayedRun.RUNNING, "", written));
                }
                events.stageEnded(runId, job, stageId(stage), STAGES.get(stage), "", request.result(), 1_000);
            }
            if (request.lines() > 1) {
                written += line(sink, "Finished: " + request.result(), 0);
            }
            sink.flush();
        } catch (InterruptedException e) {
            log("event=standin_build_interrupted job=\"" + job + "\" build=" + build.number() + " run_id=" + runId
                    + " message=\"the stand-in stops; the run finishes ABORTED at its next start\"");
            Thread.currentThread().interrupt();
            return;
        } catch (IOException | RuntimeException e) {
            log("event=standin_build_failed job=\"" + job + "\" build=" + build.number() + " run_id=" + runId
                    + " error=\"" + e + "\"");
            return;
        }
        long durationMillis = Duration.ofNanos(System.nanoTime() - startedNanos).toMillis();
        events.testSummary(runId, job, TESTS, request.result().equals("UNSTABLE") ? 1 : 0, TESTS_SKIPPED);
        events.runCompleted(runId, job, build.number(), request.result(), durationMillis);
        events.runFinalized(runId, job, build.number(), request.result(), durationMillis);
        core.runFinished(runId);
        build.finish();
        PlayedRun finished = started.with(PlayedRun.FINISHED, request.result(), written);
        runs.put(runId, finished);
        try {
            writeRunFile(buildDir, finished);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record the end of " + job + " #" + build.number() + " in " + buildDir, e);
        }
        log("event=standin_build_finished job=\"" + job + "\" build=" + build.number() + " run_id=" + runId
                + " result=" + request.result() + " log_bytes=" + written + " duration_ms=" + durationMillis);
    }

    private static long line(OutputStream sink, String text, long pauseNanos) throws IOException, InterruptedException {
        byte[] bytes = (text + "\n").getBytes(StandardCharsets.UTF_8);
        sink.write(bytes, 0, bytes.length);
        if (pauseNanos > 0) {
            Thread.sleep(pauseNanos / 1_000_000, (int) (pauseNanos % 1_000_000));
        }
        return bytes.length;
    }

    private static String stageId(int stage) {
        return Integer.toString(3 + 4 * stage);
    }

    // A run that was playing when the stand-in stopped: finished ABORTED now, its log copy closed.
    private void load(Path jobs, Path runFile) throws IOException {
        Properties saved = new Properties();
        try (Reader in = Files.newBufferedReader(runFile, StandardCharsets.UTF_8)) {
            saved.load(in);
        }
        String job = jobName(jobs, runFile.getParent().getParent().getParent());
        PlayedRun run = new PlayedRun(saved.getProperty("run_id"), job, Integer.parseInt(saved.getProperty("number")),
                saved.getProperty("state"), saved.getProperty("result", ""), logSize(runFile.getParent()));
        if (run.state().equals(PlayedRun.RUNNING)) {
            String line = "Build was aborted: the Jenkins stand-in stopped while it ran (restarted "
                    + java.time.Instant.now() + ")\nFinished: ABORTED\n";
            byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
            try (OutputStream own = Files.newOutputStream(runFile.resolveSibling("log"), StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND); ConsoleLogSink sink = core.log(run.runId(), job).sink(own)) {
                sink.write(bytes, 0, bytes.length);
            }
            core.events().runCompleted(run.runId(), job, run.number(), "ABORTED", 0);
            core.events().runFinalized(run.runId(), job, run.number(), "ABORTED", 0);
            core.runFinished(run.runId());
            run = run.with(PlayedRun.ABORTED, "ABORTED", run.logBytes() + bytes.length);
            writeRunFile(runFile.getParent(), run);
            log("event=standin_build_aborted_at_start job=\"" + job + "\" build=" + run.number() + " run_id="
                    + run.runId() + " message=\"it was running when the stand-in stopped\"");
        }
        runs.put(run.runId(), run);
    }

    private static long logSize(Path buildDir) throws IOException {
        Path log = buildDir.resolve("log");
        return Files.exists(log) ? Files.size(log) : 0;
    }

    private static void writeRunFile(Path buildDir, PlayedRun run) throws IOException {
        Properties saved = new Properties();
        saved.setProperty("run_id", run.runId());
        saved.setProperty("number", Integer.toString(run.number()));
        saved.setProperty("state", run.state());
        saved.setProperty("result", run.result());
        Path temporary = buildDir.resolve(RUN_FILE + ".tmp");
        try (Writer out = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8)) {
            saved.store(out, "a run the Varroa Jenkins stand-in played");
        }
        Files.move(temporary, buildDir.resolve(RUN_FILE), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    // jobs/<a>/jobs/<b> holds job a/b, as Jenkins lays out folders.
    private Path jobDir(String job) {
        Path dir = home.resolve("jobs");
        String[] segments = job.split("/");
        for (int i = 0; i < segments.length; i++) {
            dir = (i == 0 ? dir : dir.resolve("jobs")).resolve(segments[i]);
        }
        return dir;
    }

    private static String jobName(Path jobs, Path jobDir) {
        List<String> segments = new ArrayList<>();
        Path relative = jobs.relativize(jobDir);
        for (int i = 0; i < relative.getNameCount(); i += 2) {
            segments.add(relative.getName(i).toString());
        }
        return String.join("/", segments);
    }

    static void checkJobName(String job) {
        if (job == null || job.isBlank()) {
            throw new IllegalArgumentException("job is missing: name the job to play, e.g. job=team/app");
        }
        for (String segment : job.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..") || segment.strip().length() != segment.length()
                    || segment.chars().anyMatch(c -> UNSAFE_NAME_CHARACTERS.indexOf(c) >= 0 || Character.isISOControl(c))) {
                throw new IllegalArgumentException("job '" + job + "' is not a name Jenkins accepts (Jenkins#checkGoodName):"
                        + " use folders and names without " + UNSAFE_NAME_CHARACTERS + ", empty parts, '.' or '..'");
            }
        }
    }

    static void log(String line) {
        System.out.println(line);
    }
}
