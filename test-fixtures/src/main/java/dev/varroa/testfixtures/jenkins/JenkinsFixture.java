package dev.varroa.testfixtures.jenkins;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.varroa.testfixtures.process.LoopbackPort;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * A contract fixture standing in for Jenkins: an HTTP server on 127.0.0.1 that answers the endpoints the mite calls
 * the way Jenkins core and the configuration-as-code plugin answer them, so mite tests run without Jenkins. Every
 * behaviour comes from Jenkins' sources, named below by class and method; what the fixture leaves out is said too.
 * It is always a Jenkins with security on (Jenkins#isUseSecurity true), the only kind the operator renders (the
 * Varroa security realm, and its fail-closed strategy unless a bundle grants people): there is no unsecured mode,
 * an anonymous POST never reaches an action, and a bearer token counts only once the plugged-in verifier accepted
 * it (the reconciler tests plug in the plugin core's JenkinsTokenVerifier with the operator's real key).
 *
 * <h2>Request pipeline, in Jenkins' filter order</h2>
 * <ol>
 * <li><b>Boot.</b> While {@link #booting()}, every path answers 503 with the "getting ready to work" page
 *     (hudson.util.HudsonIsLoading#doDynamic). After {@link #bootFailed(String)}, every path answers 503 with the
 *     message in the page (hudson.util.ErrorObject#doDynamic for BootFailure; ConfigurationAsCodeBootFailure#doDynamic
 *     when CasC broke the boot). Neither page is guaranteed X-Jenkins headers (Functions#advertiseHeaders writes
 *     nothing while Jenkins.getInstanceOrNull() is null), so the fixture sends none. While a safe restart restarts,
 *     every path answers 503 "Jenkins is restarting" (hudson.util.HudsonIsRestarting#doDynamic), then nothing
 *     listens, then it boots as above (see {@code /safeRestart} below).</li>
 * <li><b>Authentication.</b> {@code Authorization: Bearer <jwt>} goes to {@link #bearerTokenAccepted(Predicate)}
 *     (plug in the realm's JenkinsTokenVerifier). A refused token answers 401 with
 *     {@code WWW-Authenticate: Bearer realm="Jenkins"} on every path: the Varroa realm's contract, the way
 *     jenkins.security.BasicHeaderProcessor#fail answers refused Basic credentials (401, never a fallback to
 *     anonymous). An accepted token acts as the administrator {@value #VERIFIED_BEARER_USER}. A Basic header always
 *     answers 401 (the fixture knows no users); no header, a blank bearer or another scheme is anonymous.</li>
 * <li><b>CSRF</b> (hudson.security.csrf.CrumbFilter#doFilter). A POST needs a crumb in the {@code Jenkins-Crumb}
 *     header or form field, else 403 "No valid crumb was included in the request" (CrumbFilter ignores the legacy
 *     {@code .crumb} field it looks up). {@code GET /crumbIssuer/api/json} issues it, computed as
 *     DefaultCrumbIssuer#issueCrumb does from user, client IP and HTTP session id: the caller must send back the
 *     {@code JSESSIONID.*} cookie that came with the crumb. Exclusions run first: TokenReloadCrumbExclusion (exactly
 *     {@code /reload-configuration-as-code/}, trailing slash included, and only while a reload token is set) and,
 *     with {@link #csrfExclusionForVerifiedBearer(boolean)} on, the Varroa realm's BearerCrumbExclusion, which exempts
 *     a POST only when its bearer verifies (like core's jenkins.security.ApiCrumbExclusion does for API tokens); a
 *     refused bearer has already been answered 401 by then.</li>
 * <li><b>Read permission</b> (Jenkins#getTarget with ALWAYS_READABLE_PATHS and UnprotectedRootActions). Anonymous may
 *     reach {@code /login} and {@code /reload-configuration-as-code} only; anything else answers 403 with the
 *     "Authentication required" page and X-You-Are-Authenticated-As / X-Required-Permission headers
 *     (HudsonAuthenticationEntryPoint#commence, AccessDeniedException3#reportAsHeaders). Jenkins answers anonymous
 *     with 403, never 401; 401 only means presented credentials were refused.</li>
 * </ol>
 *
 * <h2>Routes</h2>
 * <ul>
 * <li>{@code GET /login}: 200, a layout page (lib/layout/layout.jelly): X-Hudson, X-Jenkins, X-Jenkins-Session, and a
 *     session cookie.</li>
 * <li>{@code GET /api/json}: Jenkins' exported bean (description, mode, nodeDescription, nodeName, numExecutors,
 *     quietDownReason, quietingDown, url, useCrumbs, useSecurity; jobs and views are not modelled). API responses
 *     carry X-Jenkins, X-Jenkins-Session, X-Content-Type-Options and X-Frame-Options (hudson.model.Api#setHeaders), but
 *     not X-Hudson. Redirects and sendError pages carry none of them.</li>
 * <li>{@code GET /computer/api/json}: hudson.model.ComputerSet with the built-in node's
 *     {@value #BUILT_IN_NODE_EXECUTORS} executors (Jenkins' default numExecutors) and its one-off executors.
 *     {@code ?depth=} and {@code ?tree=} prune as Stapler does: at the default depth 0 each executor is an empty
 *     {@code {}}; {@code idle}/{@code currentExecutable} need depth=1 or a tree; at depth=1 a run shows only
 *     {@code _class}, {@code number} and {@code url} (Run#getNumber and Run#getAbsoluteUrl are
 *     {@code @Exported(visibility = 2)}), and {@code fullDisplayName} needs depth=2 or a tree.
 *     <b>busyExecutors and totalExecutors do not count one-off executors</b>: ComputerSet#getBusyExecutors sums
 *     Computer#countBusy, which counts {@code executors} only. Pipeline runs sit on one-off executors, so a drain
 *     must count {@code oneOffExecutors[].idle == false} itself; Computer#isIdle (the computer's {@code idle}) does
 *     include them.</li>
 * <li>{@code GET /crumbIssuer/api/json}: {@code {"_class":"hudson.security.csrf.DefaultCrumbIssuer","crumb":…,
 *     "crumbRequestField":"Jenkins-Crumb"}}, opening a session.</li>
 * <li>{@code POST /quietDown} (Jenkins#doQuietDown: {@code @RequirePOST}, Jenkins.MANAGE): 302 to the root URL; the optional
 *     {@code message} becomes quietDownReason; {@code block=true} holds the answer until no executor is busy or
 *     {@code timeout} milliseconds pass (Jenkins polls RestartListener#isAllReady, which can let builds whose
 *     execution does not block restart through earlier; the fixture waits for every build).
 *     {@code POST /cancelQuietDown} (Jenkins#doCancelQuietDown): 302 to the root URL. Any other method on a
 *     {@code @RequirePOST} route answers 405 with {@code Allow: POST} (RequirePOST.Processor). Both check
 *     Jenkins.MANAGE: with {@link #bearerMayManage(boolean)} off they answer 403 "Access Denied: mite is missing the
 *     Overall/Manage permission" with X-Required-Permission {@code hudson.model.Hudson.Manage} and
 *     X-Permission-Implied-By {@code hudson.model.Hudson.Administer} (hudson.security.AccessDeniedException3,
 *     AccessDeniedHandlerImpl, jenkins/model/Jenkins/accessDenied.jelly).</li>
 * <li>{@code /safeRestart} (Jenkins#doSafeRestart and Jenkins#safeRestart, in jenkinsci/jenkins
 *     {@code core/src/main/java/jenkins/model/Jenkins.java}; the lifecycle in {@code core/src/main/java/hudson/lifecycle/}
 *     Lifecycle.java, UnixLifecycle.java, RestartNotSupportedException.java; the restarting page in
 *     {@code core/src/main/java/hudson/util/HudsonIsRestarting.java}). Not {@code @RequirePOST}; checks Jenkins.MANAGE
 *     first (403 as above). GET answers 200 with the _safeRestart.jelly page ("Jenkins cannot restart itself as
 *     currently configured." when it cannot); a {@code cancel} parameter cancels quiet-down (302). POST with a
 *     lifecycle that cannot restart ({@link #restartNotSupported(String)}) answers 500 with the error page
 *     (RestartNotSupportedException reaches Stapler); else it sets quiet-down with the optional {@code message} and
 *     answers 302 to the root at once, while a thread waits until no executor is busy (doQuietDown's block loop; the
 *     fixture waits for every build, Jenkins' RestartListener#isAllReady may let a resumable Pipeline through). If
 *     quiet-down was cancelled meanwhile the restart is abandoned; else the fixture answers 503 "Jenkins is
 *     restarting", closes its port (UnixLifecycle#restart execs the JVM), opens it again answering 503 while it
 *     boots (configuration-as-code applied again when {@link #configureAtBoot()} ran before), and serves again with
 *     quiet-down off, no running build, no HTTP session or crumb, no connected agent, and a new X-Jenkins-Session.
 *     Each phase lasts {@link #restartTimings}; {@link #restarts()} counts restarts, {@link #safeRestartPending()}
 *     says one waits for builds; a second POST while one waits adds nothing.</li>
 * <li>{@code POST /configuration-as-code/reload}, also under {@code /manage/} (ConfigurationAsCode#doReload,
 *     Jenkins.MANAGE): reads the YAML files under {@link #cascDirectory(Path)} the way ConfigurationAsCode#configs
 *     walks it, takes {@link #configurationDelay(Duration)}, then succeeds with 302 to
 *     {@code <root>configuration-as-code/}, or, on a ConfiguratorException, <b>answers 200</b> with the
 *     "Error loading configuration" page holding the message (doReload catches the exception and forwards to
 *     error.jelly without setting a status; handleExceptionOnReloading). A missing path is such an exception:
 *     "Invalid configuration: '&lt;path&gt;' isn't a valid path.".</li>
 * <li>{@code POST /reload-configuration-as-code/?casc-reload-token=…} (TokenReloadAction#doIndex, unprotected):
 *     404 while no token is set (CASC_RELOAD_TOKEN / casc.reload.token), 401 for a missing or wrong token, 200 with an
 *     empty body on success, and on a ConfiguratorException 500 with
 *     {@code {"status":"error","message":"Failed to reload configuration: …"}}.</li>
 * <li>{@code POST /configuration-as-code/check} (ConfigurationAsCode#doCheck, body = YAML): 200 {@code []} when the
 *     YAML parses and the configuration is accepted, else 400 {@code [{"line":-1,"message":…}]}.
 *     {@code POST /configuration-as-code/apply} (ConfigurationAsCode#doApply): applies the standard sources plus the
 *     posted YAML; 200 with an empty body, or 500 when the ConfiguratorException escapes to Stapler.</li>
 * <li>{@code GET /queue/api/json} (hudson.model.Queue, Queue#getItems inline): the items {@link #enqueue(String)} put
 *     there, each a {@code hudson.model.Queue$BuildableItem} with its {@code id} (counting from 1), task, {@code why}
 *     and timestamps, until {@link QueuedItem#leave()}; {@code discoverableItems} stays empty (the caller reads all).</li>
 * <li>{@code POST /job/<a>/job/<b>/build} and {@code .../buildWithParameters} (ParameterizedJobMixIn#doBuild and
 *     #doBuildWithParameters, BuildAuthorizationToken#checkPermission, ParametersDefinitionProperty#_doBuild and
 *     #buildWithParameters) for the jobs {@link #defineJob(String, List)} defined: 404 (Stapler's) for any other name;
 *     a GET answers 405 with {@code Allow: POST} and Job/requirePOST.jelly, except a GET of a parameterized job's
 *     {@code build}, which shows its parameter form (200). {@code build} of an unparameterized job queues an item and
 *     answers 201 with {@code Location: <root>queue/item/<id>/} (201 also when an identical item already waited,
 *     JENKINS-66105); of a parameterized one it answers 400 "Nothing is submitted" (Stapler's getSubmittedForm
 *     without the UI's {@code json} field, which the fixture does not model). {@code buildWithParameters} of an
 *     unparameterized job answers 400 "&lt;name&gt; is not parameterized"; of a parameterized one it takes each
 *     defined parameter from the form (an absent one as ""), answers 201 with the new item's Location, or 303 See
 *     Other with the Location of an item of the same job and parameters still waiting (Queue#schedule2). The CSRF and
 *     read checks above apply. {@link #requestedBuilds()} lists the queued items with their parameters and
 *     {@link #onBuildRequested(Consumer)} hears each; {@link #everyJobDefined()} makes every name a job (the stand-in).
 *     Disabled jobs (409), build tokens and quiet periods are not modelled: an item is buildable at once.</li>
 * <li>{@code GET /varroa/activity} (the Varroa plugin's VarroaAction#doActivity, behind the read check):
 *     {@code {"lastUserRequestEpochMillis": N}} once {@link #lastUserRequest(Instant)} set it, 404 before.</li>
 * <li>{@code GET /wsagents/} (jenkins.agents.WebSocketAgents#doIndex, an UnprotectedRootAction): the inbound agent
 *     reconnect; see {@link WebSocketAgentsRoute} for its answers and {@link InboundAgent} for the agent's side.
 *     Agents appear in {@code /computer/api/json} as {@code hudson.slaves.SlaveComputer} whose {@code displayName} is
 *     the node name, with {@value #AGENT_EXECUTORS} executor, offline until their handshake was accepted.</li>
 * <li>A POST to any other path (e.g. {@code /github-webhook/}): taken as a webhook delivery, answered 200 and kept in
 *     {@link #deliveries()} with its headers and body. Webhook receivers are UnprotectedRootActions with their own
 *     CrumbExclusion (the GitHub plugin's GitHubWebHookCrumbExclusion), so neither the crumb nor the read check applies;
 *     the fixture does not check a delivery's signature.</li>
 * <li>Anything else: 404.</li>
 * </ul>
 *
 * <h2>JENKINS_HOME</h2>
 * Started with a home folder ({@link #startOn(Path)}), the fixture loads its agents from {@code nodes/<name>/config.xml}
 * (Nodes#load) and the agent secret key from {@code secrets/jenkins.slaves.JnlpSlaveAgentProtocol.secret}, writing a new
 * key when there is none, as a first Jenkins start does. {@link #addAgent(String)} writes the node's config.xml and
 * returns its secret: HMAC-SHA256 of the name under that key, in hex (JnlpAgentReceiver.SLAVE_SECRET). Real Jenkins
 * keeps the key encrypted with {@code secrets/master.key}; the fixture keeps it raw and has no master.key. So a fixture
 * re-created on the same home knows the same agents with the same secrets, and one on an empty home refuses them as
 * WebSocketAgents does ("no such agent"; over the TCP JNLP4-connect protocol, which the fixture does not model, Jenkins
 * refuses the same agent with "Unknown client name: &lt;name&gt;", seed 003). Without a home, agents and key live in memory.
 * <h2>Outside a test</h2>
 * {@link #start(String, Path, InetSocketAddress)} binds another address and port (the Jenkins stand-in image serves
 * on 0.0.0.0:8080, where the kubelet's probes and the Service reach it); {@link #serve(String, HttpHandler)} adds
 * routes that are not Jenkins' and {@link #headerOnEveryAnswer(String, String)} a header to every answer, so the
 * stand-in can say what it is; {@link #configureAtBoot()} runs the configuration-as-code apply Jenkins runs at start.
 * <p>
 * State changes are safe to call from tests while requests are in flight.
 */
public final class JenkinsFixture implements AutoCloseable {

    /** The version the fixture reports unless told otherwise. */
    public static final String DEFAULT_VERSION = "2.555.2";

    /** Jenkins' default {@code numExecutors} for the built-in node. */
    public static final int BUILT_IN_NODE_EXECUTORS = 2;

    /** The {@code _class} of the built-in node's computer (Jenkins#createComputer makes a Hudson.MasterComputer). */
    public static final String BUILT_IN_COMPUTER_CLASS = "hudson.model.Hudson$MasterComputer";

    /** The {@code _class} of an inbound agent's computer. */
    public static final String AGENT_COMPUTER_CLASS = "hudson.slaves.SlaveComputer";

    /** Executors of an agent the fixture adds (a DumbSlave's default numExecutors). */
    public static final int AGENT_EXECUTORS = 1;

    /** The trigger of the configuration-as-code run {@link #configureAtBoot()} records. */
    public static final String BOOT_TRIGGER = "startup";

    /** The user an accepted bearer token acts as (the operator's JWTs carry {@code sub=mite}); crumbs are bound to it. */
    public static final String VERIFIED_BEARER_USER = "mite";

    // ConfigurationAsCode.YAML_FILES_PATTERN
    private static final PathMatcher YAML_FILES = FileSystems.getDefault().getPathMatcher("glob:**.{yml,yaml,YAML,YML}");

    /**
     * How long each phase of a restart lasts unless {@link #restartTimings} says otherwise: over a second in all, since
     * the mite's jenkins_up_since counts whole seconds (Jenkins' own restart takes more than 10 s).
     */
    public static final Duration DEFAULT_RESTART_PHASE = Duration.ofMillis(400);

    private enum BootState { BOOTING, FAILED, RESTARTING, READY }

    private final Object lock = new Object();
    private final String version;
    private volatile String sessionHash;
    private final SessionCrumbIssuer crumbIssuer = new SessionCrumbIssuer();
    private final InetSocketAddress boundAddress;
    private volatile HttpServer server;
    // Every context after the root one ({@link #serve}), bound again when a restart opens the port again.
    private final List<Map.Entry<String, HttpHandler>> servedRoutes = new CopyOnWriteArrayList<>();
    private final ExecutorService requestThreads;
    private final URI url;

    private BootState bootState = BootState.READY;
    private String bootFailure;
    private boolean quietingDown;
    private String quietDownReason;
    private boolean bearerMayManage = true;
    private String restartNotSupported;
    private boolean safeRestartPending;
    private boolean configuredAtBoot;
    private int restarts;
    private Duration restartingFor = DEFAULT_RESTART_PHASE;
    private Duration downFor = DEFAULT_RESTART_PHASE;
    private Duration bootingFor = DEFAULT_RESTART_PHASE;
    private Path cascDirectory;
    private String cascReloadToken;
    private String configurationRejection;
    private Duration configurationDelay = Duration.ZERO;
    private Predicate<String> bearerTokenAccepted = token -> false;
    private boolean csrfExclusionForVerifiedBearer = true;
    // Issue 11 (mite schedules poll): what GET /varroa/schedules answers; null answers 404.
    private String jobScheduleInventory;
    // Issue 15 (hibernation): what GET /varroa/activity answers; null answers 404.
    private Long lastUserRequestEpochMillis;
    private final AgentDatabase agents;
    private final Set<String> connectedAgents = new TreeSet<>();
    private final List<AgentConnection> agentConnections = new ArrayList<>();
    private final List<QueuedItem> queue = new ArrayList<>();
    private long lastQueueId;
    private final Map<String, JobDefinition> jobs = new HashMap<>();
    private boolean everyJobDefined;
    private final List<QueuedItem> requestedBuilds = new ArrayList<>();
    private final List<Consumer<QueuedItem>> buildListeners = new CopyOnWriteArrayList<>();
    private final List<ReceivedDelivery> deliveries = new ArrayList<>();
    private boolean closed;
    private final RunningBuild[] executors = new RunningBuild[BUILT_IN_NODE_EXECUTORS];
    private final List<RunningBuild> oneOffExecutors = new ArrayList<>();
    private final Map<String, Integer> lastBuildNumbers = new HashMap<>();
    private final List<RecordedRequest> requests = new ArrayList<>();
    private final List<AppliedConfiguration> appliedConfigurations = new ArrayList<>();
    private final List<Consumer<AppliedConfiguration>> configurationListeners = new CopyOnWriteArrayList<>();
    private final List<Map.Entry<String, String>> extraHeaders = new CopyOnWriteArrayList<>();

    private JenkinsFixture(String version, Path jenkinsHome, InetSocketAddress bindAddress) throws IOException {
        this.version = Objects.requireNonNull(version, "version");
        // Read before the port opens, as Jenkins loads nodes before it serves them.
        this.agents = AgentDatabase.open(jenkinsHome);
        // Jenkins.SESSION_HASH: a random hex string that changes with every Jenkins start.
        this.sessionHash = newSessionHash();
        // Slow reloads and blocking quiet-downs hold their thread, so every request gets its own.
        this.requestThreads = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "jenkins-fixture-request");
            thread.setDaemon(true);
            return thread;
        });
        this.server = listen(bindAddress);
        // The port a restart binds again, once port 0 was resolved to a free one.
        this.boundAddress = server.getAddress();
        // Bound to every address, it is still reached as itself on loopback (the mite beside it in the pod does).
        InetAddress bound = server.getAddress().getAddress();
        String host = bound.isAnyLocalAddress() ? LoopbackPort.HOST : bound.getHostAddress();
        this.url = URI.create("http://" + host + ":" + server.getAddress().getPort() + "/");
    }

    private HttpServer listen(InetSocketAddress address) throws IOException {
        HttpServer listening = HttpServer.create(address, 0);
        listening.setExecutor(requestThreads);
        withExtraHeaders(listening.createContext("/", new JenkinsRequestHandler(this, crumbIssuer)));
        servedRoutes.forEach(route -> withExtraHeaders(listening.createContext(route.getKey(), route.getValue())));
        listening.start();
        return listening;
    }

    private static String newSessionHash() {
        return Integer.toHexString(new SecureRandom().nextInt());
    }

    /** Starts a ready Jenkins reporting {@value #DEFAULT_VERSION} on a free loopback port. */
    public static JenkinsFixture start() {
        return start(DEFAULT_VERSION);
    }

    /** Starts a ready Jenkins reporting {@code version} in X-Jenkins, with no JENKINS_HOME: agents live in memory. */
    public static JenkinsFixture start(String version) {
        return start(version, null);
    }

    /** Starts a ready Jenkins reporting {@value #DEFAULT_VERSION} on {@code jenkinsHome}; see {@link #start(String, Path)}. */
    public static JenkinsFixture startOn(Path jenkinsHome) {
        return start(DEFAULT_VERSION, Objects.requireNonNull(jenkinsHome, "jenkinsHome"));
    }

    /**
     * Starts a ready Jenkins reporting {@code version} in X-Jenkins on the JENKINS_HOME folder {@code jenkinsHome}
     * (null for none). It loads the agents of {@code nodes/<name>/config.xml} and the agent secret key of
     * {@code secrets/jenkins.slaves.JnlpSlaveAgentProtocol.secret}, writing a new key when the home has none, as a
     * first Jenkins start does. A fixture started again on the same home therefore knows the same agents with the same
     * secrets; one started on an empty home knows none (seed 003).
     */
    public static JenkinsFixture start(String version, Path jenkinsHome) {
        try {
            return start(version, jenkinsHome, new InetSocketAddress(InetAddress.getByName(LoopbackPort.HOST), 0));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot resolve " + LoopbackPort.HOST, e);
        }
    }

    /**
     * As {@link #start(String, Path)}, listening on {@code bindAddress} (port 0 picks a free one): the Jenkins stand-in
     * image listens on 0.0.0.0:8080 as Jenkins does. {@link #url()} names 127.0.0.1 when every address is bound.
     */
    public static JenkinsFixture start(String version, Path jenkinsHome, InetSocketAddress bindAddress) {
        Objects.requireNonNull(bindAddress, "bindAddress");
        try {
            return new JenkinsFixture(version, jenkinsHome, bindAddress);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the Jenkins fixture on " + bindAddress
                    + " (is the port taken by another process?)", e);
        }
    }

    /**
     * Answers every request under {@code pathPrefix} with {@code handler} instead of Jenkins' pipeline (no boot gate,
     * no authentication, no crumb): routes a Jenkins stand-in adds that Jenkins has not. The longest prefix wins.
     */
    public void serve(String pathPrefix, HttpHandler handler) {
        servedRoutes.add(Map.entry(pathPrefix, handler));
        withExtraHeaders(server.createContext(pathPrefix, handler));
    }

    /** Adds {@code name: value} to every answer from now on, Jenkins' routes and {@link #serve} routes alike. */
    public void headerOnEveryAnswer(String name, String value) {
        extraHeaders.add(Map.entry(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value")));
    }

    /** Called with every successful configuration-as-code run, after it was recorded (a stand-in keeps it on disk). */
    public void onConfigurationApplied(Consumer<AppliedConfiguration> listener) {
        configurationListeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * The apply ConfigurationAsCode#init runs while Jenkins starts (trigger {@value #BOOT_TRIGGER}): reads
     * {@link #cascDirectory(Path)} and records the run; a ConfiguratorException makes the boot fail as
     * ConfigurationAsCodeBootFailure does, every path answering 503 with its message.
     *
     * @return the ConfiguratorException message, or empty when the configuration was applied
     */
    public Optional<String> configureAtBoot() throws InterruptedException {
        synchronized (lock) {
            configuredAtBoot = true;
        }
        Optional<String> failure = configure(BOOT_TRIGGER, null);
        failure.ifPresent(this::bootFailed);
        return failure;
    }

    /**
     * Job#updateNextBuildNumber: the next build of {@code jobName} gets {@code number} (Jenkins reads it from
     * {@code jobs/<name>/nextBuildNumber} when it loads the job, so numbers go on across a restart).
     */
    public void nextBuildNumber(String jobName, int number) {
        Objects.requireNonNull(jobName, "jobName");
        if (number < 1) {
            throw new IllegalArgumentException("next build number of " + jobName + " is " + number + "; Jenkins counts from 1");
        }
        synchronized (lock) {
            lastBuildNumbers.put(jobName, number - 1);
        }
    }

    private void withExtraHeaders(HttpContext context) {
        context.getFilters().add(new Filter() {
            @Override
            public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
                extraHeaders.forEach(header -> exchange.getResponseHeaders().add(header.getKey(), header.getValue()));
                chain.doFilter(exchange);
            }

            @Override
            public String description() {
                return "headers every answer carries";
            }
        });
    }

    /** The JENKINS_HOME folder it started on, if any. */
    public Optional<Path> jenkinsHome() {
        return agents.home();
    }

    /** {@code http://127.0.0.1:<port>/}, with the trailing slash Jenkins' root URL has. */
    public URI url() {
        return url;
    }

    public String version() {
        return version;
    }

    /** The X-Jenkins-Session value; a new fixture, or this one after a restart, has a new one, as Jenkins does. */
    public String sessionHash() {
        return sessionHash;
    }

    /** Every path answers 503 as HudsonIsLoading does until {@link #ready()}. */
    public void booting() {
        setBoot(BootState.BOOTING, null);
    }

    /** Every path answers 503 with {@code message} in the page, as a BootFailure does. */
    public void bootFailed(String message) {
        setBoot(BootState.FAILED, Objects.requireNonNull(message, "message"));
    }

    /** Serves normally; the state a new fixture starts in. */
    public void ready() {
        setBoot(BootState.READY, null);
    }

    /**
     * Whether the verified bearer's user holds Overall/Manage (true by default, the administrator). False makes
     * {@code /quietDown}, {@code /cancelQuietDown} and {@code /safeRestart} answer 403 as Jenkins#checkPermission(MANAGE)
     * does; the fixture's other routes do not check it.
     */
    public void bearerMayManage(boolean mayManage) {
        synchronized (lock) {
            bearerMayManage = mayManage;
        }
    }

    /**
     * Makes {@code POST /safeRestart} fail as it does when Lifecycle#verifyRestartable throws
     * RestartNotSupportedException with {@code reason} (500, Jenkins' error page, the reason only in its log); null
     * (the default) lets Jenkins restart, as UnixLifecycle does on Linux.
     */
    public void restartNotSupported(String reason) {
        synchronized (lock) {
            restartNotSupported = reason;
        }
    }

    /**
     * How long each phase of a restart lasts: answering 503 "Jenkins is restarting" (HudsonIsRestarting; Jenkins
     * waits 10 s there), refusing connections (the JVM execs itself, UnixLifecycle#restart), then answering 503
     * "getting ready to work" while it boots (HudsonIsLoading). {@link #DEFAULT_RESTART_PHASE} each by default.
     */
    public void restartTimings(Duration restarting, Duration down, Duration booting) {
        for (Duration phase : List.of(Objects.requireNonNull(restarting, "restarting"), Objects.requireNonNull(down, "down"),
                Objects.requireNonNull(booting, "booting"))) {
            if (phase.isNegative()) {
                throw new IllegalArgumentException("a restart phase of " + phase + " is negative; give zero or more");
            }
        }
        synchronized (lock) {
            restartingFor = restarting;
            downFor = down;
            bootingFor = booting;
        }
    }

    /** Restarts completed since the fixture started (each ended serving again). */
    public int restarts() {
        synchronized (lock) {
            return restarts;
        }
    }

    /** True while a safe restart waits for running builds to end. */
    public boolean safeRestartPending() {
        synchronized (lock) {
            return safeRestartPending;
        }
    }

    /** Where configuration-as-code reads YAML from (CASC_JENKINS_CONFIG: a directory or one file); null for none. */
    public void cascDirectory(Path directory) {
        synchronized (lock) {
            cascDirectory = directory == null ? null : directory.toAbsolutePath();
        }
    }

    /** Enables {@code /reload-configuration-as-code/} with this token, as CASC_RELOAD_TOKEN does; null disables it. */
    public void cascReloadToken(String token) {
        synchronized (lock) {
            cascReloadToken = token == null || token.isEmpty() ? null : token;
        }
    }

    /** Configuration runs succeed; the state a new fixture starts in. */
    public void acceptConfiguration() {
        synchronized (lock) {
            configurationRejection = null;
        }
    }

    /** Every configuration run fails with a ConfiguratorException carrying {@code message}, until accepted again. */
    public void rejectConfiguration(String message) {
        synchronized (lock) {
            configurationRejection = Objects.requireNonNull(message, "message");
        }
    }

    /** How long each configuration run works before it answers, to imitate a slow reload; zero by default. */
    public void configurationDelay(Duration delay) {
        synchronized (lock) {
            configurationDelay = Objects.requireNonNull(delay, "delay");
        }
    }

    /** The verifier for {@code Authorization: Bearer} tokens; by default every token is refused. */
    public void bearerTokenAccepted(Predicate<String> verifier) {
        synchronized (lock) {
            bearerTokenAccepted = Objects.requireNonNull(verifier, "verifier");
        }
    }

    /** Whether a POST with an accepted bearer token needs no crumb, as the Varroa realm's exclusion allows; on by default. */
    public void csrfExclusionForVerifiedBearer(boolean enabled) {
        synchronized (lock) {
            csrfExclusionForVerifiedBearer = enabled;
        }
    }

    /**
     * Issue 11 (mite schedules poll): the JobScheduleInventory JSON (protobuf JSON mapping) the Varroa plugin's
     * {@code GET /varroa/schedules} answers with 200; null (the default) answers 404, as a Jenkins without that
     * plugin version does (Stapler finds no such root action).
     */
    public void jobScheduleInventory(String json) {
        synchronized (lock) {
            jobScheduleInventory = json;
        }
    }

    String jobScheduleInventory() {
        synchronized (lock) {
            return jobScheduleInventory;
        }
    }

    /**
     * Issue 15 (hibernation): the instant the Varroa plugin's {@code GET /varroa/activity} reports as
     * {@code {"lastUserRequestEpochMillis": N}} (the plugin truncates it to the minute; the fixture answers what it is
     * given); null (the default) answers 404, as a Jenkins whose plugin has no such route does.
     */
    public void lastUserRequest(Instant at) {
        synchronized (lock) {
            lastUserRequestEpochMillis = at == null ? null : at.toEpochMilli();
        }
    }

    Optional<Long> lastUserRequestEpochMillis() {
        synchronized (lock) {
            return Optional.ofNullable(lastUserRequestEpochMillis);
        }
    }

    /** Puts a build of {@code jobName} in the queue, buildable and waiting for an executor, until {@link QueuedItem#leave()}. */
    public QueuedItem enqueue(String jobName) {
        Objects.requireNonNull(jobName, "jobName");
        synchronized (lock) {
            QueuedItem item = new QueuedItem(this, ++lastQueueId, jobName, Map.of(), System.currentTimeMillis());
            queue.add(item);
            return item;
        }
    }

    /**
     * Defines a job (a Freestyle project or Pipeline, in folders when the name has "/") without parameters: its
     * {@code build} queues a build, its {@code buildWithParameters} answers 400 "is not parameterized".
     *
     * @throws IllegalArgumentException for a name with an empty segment, "." or ".."
     */
    public void defineJob(String fullName) {
        defineJob(fullName, List.of());
    }

    /**
     * Defines a job whose ParametersDefinitionProperty holds string parameters of these names (none: an unparameterized
     * job). Its {@code buildWithParameters} takes each one from the request, an absent one as its default "" (as
     * StringParameterDefinition#createValue does), and ignores any other field; its {@code build} needs the UI's form.
     */
    public void defineJob(String fullName, List<String> parameterNames) {
        checkJobName(fullName);
        List<String> names = List.copyOf(Objects.requireNonNull(parameterNames, "parameterNames"));
        synchronized (lock) {
            jobs.put(fullName, new JobDefinition(fullName, names, false));
        }
    }

    /**
     * Every well-formed name is a job taking any parameter (the Jenkins stand-in, which has no job definitions):
     * {@code build} queues a build without parameters, {@code buildWithParameters} one with every posted field.
     * Not a kind of job Jenkins has; a test of real answers defines its jobs.
     */
    public void everyJobDefined() {
        synchronized (lock) {
            everyJobDefined = true;
        }
    }

    /** Every item a build request to a job queued (201, not a 303 that joined a waiting item), oldest first. */
    public List<QueuedItem> requestedBuilds() {
        synchronized (lock) {
            return List.copyOf(requestedBuilds);
        }
    }

    /** Called with every item a build request queued, after it was queued and before the request is answered. */
    public void onBuildRequested(Consumer<QueuedItem> listener) {
        buildListeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Adds an inbound agent as Jenkins#addNode does: with a home, {@code nodes/<name>/config.xml} is written (a
     * DumbSlave with a WebSocket JNLPLauncher). Returns the agent's secret, the HMAC of the name under the agent
     * secret key (JnlpAgentReceiver.SLAVE_SECRET#mac); adding a known agent again returns the same secret.
     *
     * @throws IllegalArgumentException for a name Jenkins#checkGoodName refuses
     */
    public String addAgent(String name) {
        return agents.add(name);
    }

    /** Removes an agent as Nodes#removeNode does (its {@code nodes/<name>} folder too); false when it was unknown. */
    public boolean removeAgent(String name) {
        boolean removed = agents.remove(name);
        synchronized (lock) {
            connectedAgents.remove(name);
        }
        return removed;
    }

    /** The agents this Jenkins knows, sorted. */
    public List<String> agents() {
        return agents.names();
    }

    /** The agent's secret as Jenkins computes it (known agent or not: a secret alone does not make an agent). */
    public String agentSecret(String name) {
        return agents.secretOf(name);
    }

    /** The agents whose WebSocket handshake was accepted since this fixture started, sorted. */
    public List<String> connectedAgents() {
        synchronized (lock) {
            return List.copyOf(connectedAgents);
        }
    }

    /** Every connection attempt on {@code /wsagents/}, oldest first. */
    public List<AgentConnection> agentConnections() {
        synchronized (lock) {
            return List.copyOf(agentConnections);
        }
    }

    /** Every POST to a path the fixture does not model as a Jenkins API (a webhook delivery), oldest first. */
    public List<ReceivedDelivery> deliveries() {
        synchronized (lock) {
            return List.copyOf(deliveries);
        }
    }

    /**
     * Starts a build of {@code jobName}: on a one-off executor (a Pipeline run, a flyweight task) when {@code oneOff},
     * else on the first idle numbered executor of the built-in node.
     *
     * @throws IllegalStateException when {@code oneOff} is false and every numbered executor is busy
     */
    public RunningBuild startBuild(String jobName, boolean oneOff) {
        Objects.requireNonNull(jobName, "jobName");
        synchronized (lock) {
            int slot = IntStream.range(0, executors.length).filter(i -> executors[i] == null).findFirst().orElse(-1);
            if (!oneOff && slot < 0) {
                throw new IllegalStateException("all " + executors.length + " executors of the built-in node are busy; "
                        + "finish a RunningBuild first or start this one with oneOff=true");
            }
            RunningBuild build = new RunningBuild(this, jobName, lastBuildNumbers.merge(jobName, 1, Integer::sum),
                    oneOff, System.currentTimeMillis());
            if (oneOff) {
                oneOffExecutors.add(build);
            } else {
                executors[slot] = build;
            }
            return build;
        }
    }

    /** Whether Jenkins is in quiet-down mode. */
    public boolean quietingDown() {
        synchronized (lock) {
            return quietingDown;
        }
    }

    /** Every answered request, oldest first. */
    public List<RecordedRequest> requests() {
        synchronized (lock) {
            return List.copyOf(requests);
        }
    }

    /** Every successful configuration-as-code run, oldest first. */
    public List<AppliedConfiguration> appliedConfigurations() {
        synchronized (lock) {
            return List.copyOf(appliedConfigurations);
        }
    }

    /** The newest successful configuration-as-code run, if any. */
    public Optional<AppliedConfiguration> lastAppliedConfiguration() {
        synchronized (lock) {
            return appliedConfigurations.isEmpty()
                    ? Optional.empty()
                    : Optional.of(appliedConfigurations.get(appliedConfigurations.size() - 1));
        }
    }

    @Override
    public void close() {
        HttpServer listening;
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
            // A restart binds the port again only under the lock and only while not closed.
            listening = server;
        }
        listening.stop(0);
        requestThreads.shutdownNow();
    }

    @Override
    public String toString() {
        return "JenkinsFixture[" + url + ", version " + version + "]";
    }

    // ---- used by JenkinsRequestHandler and RunningBuild ----

    /** Why every path answers 503 right now: still booting ({@code failure} null) or failed; empty once ready. */
    record BootProblem(String failure, boolean restarting) {
    }

    Optional<BootProblem> bootProblem() {
        synchronized (lock) {
            return bootState == BootState.READY ? Optional.empty()
                    : Optional.of(new BootProblem(bootFailure, bootState == BootState.RESTARTING));
        }
    }

    boolean acceptsBearer(String token) {
        Predicate<String> verifier;
        synchronized (lock) {
            verifier = bearerTokenAccepted;
        }
        // The verifier runs outside the lock: a real JWT check may be slow and must not stall other requests.
        return verifier.test(token);
    }

    boolean csrfExclusionForVerifiedBearer() {
        synchronized (lock) {
            return csrfExclusionForVerifiedBearer;
        }
    }

    String cascReloadToken() {
        synchronized (lock) {
            return cascReloadToken;
        }
    }

    void record(RecordedRequest request) {
        synchronized (lock) {
            requests.add(request);
        }
    }

    void recordDelivery(ReceivedDelivery delivery) {
        synchronized (lock) {
            deliveries.add(delivery);
        }
    }

    AgentDatabase agentDatabase() {
        return agents;
    }

    WebSocketAgentsRoute.AgentConnections agentConnectionLog() {
        return new WebSocketAgentsRoute.AgentConnections() {
            @Override
            public void attempted(AgentConnection refused) {
                synchronized (lock) {
                    agentConnections.add(refused);
                }
            }

            @Override
            public void connected(AgentConnection accepted) {
                synchronized (lock) {
                    agentConnections.add(accepted);
                    connectedAgents.add(accepted.nodeName());
                }
            }
        };
    }

    /** A job the fixture knows: its parameter names, or any parameter at all (see {@link #everyJobDefined()}). */
    record JobDefinition(String fullName, List<String> parameterNames, boolean anyParameter) {
        boolean parameterized() {
            return anyParameter || !parameterNames.isEmpty();
        }
    }

    /** The job of this full name, if defined. */
    Optional<JobDefinition> job(String fullName) {
        synchronized (lock) {
            JobDefinition defined = jobs.get(fullName);
            if (defined == null && everyJobDefined && wellFormedJobName(fullName)) {
                return Optional.of(new JobDefinition(fullName, List.of(), true));
            }
            return Optional.ofNullable(defined);
        }
    }

    /** A build request's queue item, and whether it is new or an identical item already waiting. */
    record ScheduledBuild(QueuedItem item, boolean created) {
    }

    /**
     * Queue#schedule2: an item of the same job with the same parameters still waiting is returned instead of a new
     * one (Queue's duplicate check, ParametersAction#shouldSchedule); a new item is queued and told to the listeners.
     */
    ScheduledBuild scheduleBuild(String fullName, Map<String, String> parameters) {
        QueuedItem item;
        synchronized (lock) {
            for (QueuedItem waiting : queue) {
                if (waiting.jobName().equals(fullName) && waiting.parameters().equals(parameters)) {
                    return new ScheduledBuild(waiting, false);
                }
            }
            item = new QueuedItem(this, ++lastQueueId, fullName, parameters, System.currentTimeMillis());
            queue.add(item);
            requestedBuilds.add(item);
        }
        buildListeners.forEach(listener -> listener.accept(item));
        return new ScheduledBuild(item, true);
    }

    private static void checkJobName(String fullName) {
        if (!wellFormedJobName(fullName)) {
            throw new IllegalArgumentException("job name '" + fullName + "' has an empty segment, '.' or '..': "
                    + "name it as Jenkins' full name, folders separated by '/', e.g. team-a/build");
        }
    }

    private static boolean wellFormedJobName(String fullName) {
        if (fullName == null || fullName.isEmpty()) {
            return false;
        }
        for (String segment : fullName.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                return false;
            }
        }
        return true;
    }

    /** Job#getUrl: {@code job/<a>/job/<b>/} below the root, each segment URL-encoded. */
    String jobUrl(String fullName) {
        StringBuilder path = new StringBuilder(url.toString());
        for (String segment : fullName.split("/")) {
            path.append("job/").append(java.net.URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20"))
                    .append('/');
        }
        return path.toString();
    }

    void leaveQueue(QueuedItem item) {
        synchronized (lock) {
            queue.remove(item);
        }
    }

    void finish(RunningBuild build) {
        synchronized (lock) {
            oneOffExecutors.remove(build);
            for (int i = 0; i < executors.length; i++) {
                if (executors[i] == build) {
                    executors[i] = null;
                }
            }
            lock.notifyAll();
        }
    }

    boolean bearerMayManage() {
        synchronized (lock) {
            return bearerMayManage;
        }
    }

    /** The RestartNotSupportedException reason while restarting is refused, else empty. */
    Optional<String> restartNotSupported() {
        synchronized (lock) {
            return Optional.ofNullable(restartNotSupported);
        }
    }

    /**
     * Jenkins#safeRestart: quiet down with {@code reason}, then a thread of its own waits until no build runs
     * (doQuietDown block loop) and restarts, unless quiet-down was cancelled meanwhile ("Safe-restart mode cancelled").
     * A second call while one waits adds nothing: Jenkins' second thread would die with the first one's restart.
     */
    void safeRestart(String reason) {
        synchronized (lock) {
            quietingDown = true;
            quietDownReason = reason;
            if (safeRestartPending) {
                return;
            }
            safeRestartPending = true;
        }
        Thread waiting = new Thread(() -> {
            try {
                awaitQuiet(0);
                boolean proceed;
                synchronized (lock) {
                    safeRestartPending = false;
                    proceed = quietingDown && !closed;
                }
                if (proceed) {
                    restart();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                throw new UncheckedIOException("the fixture could not listen again on " + boundAddress
                        + " after its restart (another process took the port?)", e);
            }
        }, "jenkins-fixture-safe-restart");
        waiting.setDaemon(true);
        waiting.start();
    }

    // Jenkins#safeRestart's thread after the wait: HudsonIsRestarting, exec (port closed), HudsonIsLoading, ready.
    private void restart() throws InterruptedException, IOException {
        Duration restarting;
        Duration down;
        Duration booting;
        synchronized (lock) {
            bootState = BootState.RESTARTING;
            restarting = restartingFor;
            down = downFor;
            booting = bootingFor;
        }
        Thread.sleep(restarting.toMillis());
        HttpServer stopping = server;
        stopping.stop(0);
        boolean configureAtBoot;
        synchronized (lock) {
            if (closed) {
                return;
            }
            // What a new JVM does not have: quiet-down, running builds, HTTP sessions, connected agents.
            quietingDown = false;
            quietDownReason = null;
            Arrays.fill(executors, null);
            oneOffExecutors.clear();
            connectedAgents.clear();
            bootState = BootState.BOOTING;
            bootFailure = null;
            configureAtBoot = configuredAtBoot;
            lock.notifyAll();
        }
        crumbIssuer.forgetSessions();
        sessionHash = newSessionHash();
        Thread.sleep(down.toMillis());
        synchronized (lock) {
            if (closed) {
                return;
            }
            server = listen(boundAddress);
        }
        Thread.sleep(booting.toMillis());
        Optional<String> bootFailed = configureAtBoot ? configureAtBoot() : Optional.empty();
        synchronized (lock) {
            if (bootFailed.isEmpty()) {
                bootState = BootState.READY;
            }
            restarts++;
        }
    }

    void quietDown(String reason) {
        synchronized (lock) {
            quietingDown = true;
            quietDownReason = reason;
        }
    }

    void cancelQuietDown() {
        synchronized (lock) {
            quietingDown = false;
            quietDownReason = null;
            lock.notifyAll();
        }
    }

    /** Jenkins#doQuietDown's block loop: until quiet-down ends, nothing runs, or the timeout (ms, 0 = none) passes. */
    void awaitQuiet(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMillis(timeoutMillis).toNanos();
        synchronized (lock) {
            while (!closed && quietingDown && !allExecutorsIdle()) {
                long leftNanos = deadline - System.nanoTime();
                if (timeoutMillis > 0 && leftNanos <= 0) {
                    return;
                }
                // Rounded up, so the answer never comes before the timeout the caller asked for.
                lock.wait(timeoutMillis > 0 ? Math.max(1, (leftNanos + 999_999) / 1_000_000) : 0);
            }
        }
    }

    /**
     * ConfigurationAsCode#configure: read the standard sources (plus {@code postedYaml} for apply), work for the
     * configured delay, then succeed or fail.
     *
     * @return the ConfiguratorException message, or empty when the run succeeded and was recorded
     */
    Optional<String> configure(String trigger, String postedYaml) throws InterruptedException {
        Path path;
        String rejection;
        Duration delay;
        synchronized (lock) {
            path = cascDirectory;
            rejection = configurationRejection;
            delay = configurationDelay;
        }
        List<ConfigurationSource> sources = new ArrayList<>();
        if (path != null) {
            if (!Files.exists(path)) {
                return Optional.of("Invalid configuration: '" + path + "' isn't a valid path.");
            }
            sources.addAll(readYaml(path));
        }
        if (postedYaml != null) {
            sources.add(new ConfigurationSource(ConfigurationSource.REQUEST_BODY, postedYaml));
        }
        Thread.sleep(delay.toMillis());
        if (rejection != null) {
            return Optional.of(rejection);
        }
        AppliedConfiguration applied = new AppliedConfiguration(trigger, Instant.now(), sources);
        synchronized (lock) {
            appliedConfigurations.add(applied);
        }
        configurationListeners.forEach(listener -> listener.accept(applied));
        return Optional.empty();
    }

    /** A ConfiguratorException the check route would raise for an accepted YAML document, if any. */
    Optional<String> configurationRejection() {
        synchronized (lock) {
            return Optional.ofNullable(configurationRejection);
        }
    }

    ExportedObject jenkinsApi() {
        synchronized (lock) {
            return new ExportedObject("hudson.model.Hudson")
                    .with("description", null)
                    .with("mode", "NORMAL")
                    .with("nodeDescription", "the Jenkins controller's built-in node")
                    .with("nodeName", "")
                    .with("numExecutors", BUILT_IN_NODE_EXECUTORS)
                    .with("quietDownReason", quietDownReason)
                    .with("quietingDown", quietingDown)
                    .with("url", url.toString())
                    .with("useCrumbs", true)
                    .with("useSecurity", true);
        }
    }

    ExportedObject computerSetApi() {
        List<String> agentNames = agents.names();
        synchronized (lock) {
            List<ExportedObject> numbered = IntStream.range(0, executors.length)
                    .mapToObj(i -> executorApi(executors[i], i)).toList();
            List<ExportedObject> oneOff = oneOffExecutors.stream().map(build -> executorApi(build, -1)).toList();
            int busy = (int) Stream.of(executors).filter(Objects::nonNull).count();
            List<ExportedObject> computers = new ArrayList<>();
            computers.add(new ExportedObject(BUILT_IN_COMPUTER_CLASS)
                    .with("displayName", "Built-In Node")
                    .with("executors", numbered)
                    .with("idle", allExecutorsIdle())
                    .with("numExecutors", executors.length)
                    .with("offline", false)
                    .with("oneOffExecutors", oneOff)
                    .with("temporarilyOffline", false));
            int onlineAgentExecutors = 0;
            for (String name : agentNames) {
                boolean online = connectedAgents.contains(name);
                onlineAgentExecutors += online ? AGENT_EXECUTORS : 0;
                computers.add(agentComputerApi(name, online));
            }
            // ComputerSet#getTotalExecutors counts the executors of online computers only.
            return new ExportedObject("hudson.model.ComputerSet")
                    .with("busyExecutors", busy)
                    .inline("computer", computers)
                    .with("displayName", "Nodes")
                    .with("totalExecutors", executors.length + onlineAgentExecutors);
        }
    }

    // A SlaveComputer: displayName is the node name (Computer#getDisplayName); offline until its agent connected.
    private static ExportedObject agentComputerApi(String name, boolean online) {
        return new ExportedObject(AGENT_COMPUTER_CLASS)
                .with("displayName", name)
                .with("executors", IntStream.range(0, AGENT_EXECUTORS).mapToObj(i -> executorApi(null, i)).toList())
                .with("idle", true)
                .with("jnlpAgent", true)
                .with("numExecutors", AGENT_EXECUTORS)
                .with("offline", !online)
                .with("oneOffExecutors", List.of())
                .with("temporarilyOffline", false);
    }

    // hudson.model.Queue: items (inline) are what the caller may read; discoverableItems the ones it may only see.
    ExportedObject queueApi() {
        synchronized (lock) {
            List<ExportedObject> items = queue.stream().map(this::queueItemApi).toList();
            return new ExportedObject("hudson.model.Queue")
                    .with("discoverableItems", List.of())
                    .inline("items", items);
        }
    }

    private ExportedObject queueItemApi(QueuedItem item) {
        ExportedObject task = new ExportedObject("hudson.model.FreeStyleProject")
                .with("color", "notbuilt")
                .with("name", item.jobName().substring(item.jobName().lastIndexOf('/') + 1))
                .with("url", jobUrl(item.jobName()));
        return new ExportedObject("hudson.model.Queue$BuildableItem")
                .with("blocked", false)
                .with("buildable", true)
                .with("buildableStartMilliseconds", item.inQueueSinceMillis())
                .with("id", item.id())
                .with("inQueueSince", item.inQueueSinceMillis())
                .with("params", params(item))
                .with("pending", false)
                .with("stuck", false)
                .with("task", task)
                .with("url", "queue/item/" + item.id() + "/")
                .with("why", "Waiting for next available executor");
    }

    // Queue.Item#getParams: a line per value, each StringParameterValue#getShortDescription ("name=value").
    private static String params(QueuedItem item) {
        StringBuilder params = new StringBuilder();
        item.parameters().forEach((name, value) -> params.append('\n').append(name).append('=').append(value));
        return params.toString();
    }

    // Executor's @Exported properties; a OneOffExecutor has number -1, and progress is -1 without an estimate.
    private static ExportedObject executorApi(RunningBuild build, int number) {
        return new ExportedObject(null)
                .with("currentExecutable", build == null ? null : runApi(build))
                .with("idle", build == null)
                .with("likelyStuck", false)
                .with("number", number)
                .with("progress", -1);
    }

    private static ExportedObject runApi(RunningBuild build) {
        String runClass = build.oneOff() ? "org.jenkinsci.plugins.workflow.job.WorkflowRun" : "hudson.model.FreeStyleBuild";
        return new ExportedObject(runClass)
                .with("building", true)
                .with("displayName", "#" + build.number())
                .with("fullDisplayName", build.jobName() + " #" + build.number())
                .with("id", String.valueOf(build.number()))
                .with("number", 2, build.number())
                .with("result", null)
                .with("timestamp", build.startedAtMillis())
                .with("url", 2, build.url());
    }

    private boolean allExecutorsIdle() {
        return oneOffExecutors.isEmpty() && Stream.of(executors).allMatch(Objects::isNull);
    }

    private void setBoot(BootState state, String failure) {
        synchronized (lock) {
            bootState = state;
            bootFailure = failure;
        }
    }

    // ConfigurationAsCode#configs: one readable file as is, or every YAML file below a directory, sorted,
    // skipping any path with a name that starts with a dot.
    private static List<ConfigurationSource> readYaml(Path path) {
        try {
            List<Path> files;
            if (Files.isRegularFile(path) && Files.isReadable(path)) {
                files = List.of(path);
            } else {
                try (Stream<Path> found = Files.find(path, Integer.MAX_VALUE,
                        (next, attributes) -> !attributes.isDirectory() && !isHidden(next) && YAML_FILES.matches(next),
                        FileVisitOption.FOLLOW_LINKS)) {
                    files = found.sorted().toList();
                }
            }
            List<ConfigurationSource> sources = new ArrayList<>();
            for (Path file : files) {
                sources.add(new ConfigurationSource(file.toString(), Files.readString(file, StandardCharsets.UTF_8)));
            }
            return sources;
        } catch (IOException e) {
            throw new UncheckedIOException("failed config scan for " + path, e);
        }
    }

    private static boolean isHidden(Path path) {
        return IntStream.range(0, path.getNameCount()).anyMatch(i -> path.getName(i).toString().startsWith("."));
    }
}
