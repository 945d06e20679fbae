package dev.varroa.testfixtures.jenkins;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.LinkedHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.varroa.testfixtures.jenkins.HttpReply.escape;

/**
 * The request pipeline of the {@link JenkinsFixture} in Jenkins' order: boot gate, authentication, CrumbFilter, the
 * Overall/Read check of Jenkins#getTarget, then the routes.
 */
final class JenkinsRequestHandler implements HttpHandler {

    // CrumbFilter#doFilter's sendError message.
    private static final String NO_VALID_CRUMB = "No valid crumb was included in the request";
    // TokenReloadAction.URL_NAME and RELOAD_TOKEN_QUERY_PARAMETER.
    private static final String TOKEN_RELOAD = "/reload-configuration-as-code";
    private static final String RELOAD_TOKEN_PARAMETER = "casc-reload-token";
    // ConfigurationAsCode#getUrlName; the ManagementLink also answers under /manage/.
    private static final String CASC = "/configuration-as-code";
    private static final String MANAGE = "/manage";
    // Jenkins.ALWAYS_READABLE_PATHS: prefixes anonymous may reach without Overall/Read.
    private static final List<String> ALWAYS_READABLE_PATHS = List.of("/login", "/logout", "/accessDenied",
            "/adjuncts/", "/error", "/oops", "/signup", "/tcpSlaveAgentListener", "/federatedLoginService/",
            "/securityRealm", "/instance-identity");
    // Functions#advertiseHeaders' fixed compatibility value.
    private static final String X_HUDSON = "1.395";
    private static final String ANONYMOUS_USER = "anonymous";
    private static final String BEARER = "Bearer ";
    private static final String BASIC = "Basic ";

    // Every route the switch in route(IncomingRequest) answers; a POST anywhere else is a webhook delivery.
    private static final Set<String> MODELLED_ROUTES = Set.of("/login", "/api/json", "/computer/api/json",
            "/crumbIssuer/api/json", "/quietDown", "/cancelQuietDown", "/safeRestart", CASC + "/reload", CASC + "/check",
            CASC + "/apply", TOKEN_RELOAD, "/varroa/schedules", "/queue/api/json", "/varroa/activity",
            WebSocketAgentsRoute.PATH);

    // Stapler's dispatch through Jenkins#getItem and each folder's getItem to a ParameterizedJobMixIn action.
    private static final Pattern JOB_ACTION = Pattern.compile("((?:/job/[^/]+)+)/(build|buildWithParameters)/?");
    // Fields ParameterizedJobMixIn reads itself (delay, the authentication token) or CrumbFilter does.
    private static final Set<String> NOT_BUILD_PARAMETERS = Set.of("delay", "token",
            SessionCrumbIssuer.CRUMB_REQUEST_FIELD);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private final JenkinsFixture jenkins;
    private final SessionCrumbIssuer crumbIssuer;

    JenkinsRequestHandler(JenkinsFixture jenkins, SessionCrumbIssuer crumbIssuer) {
        this.jenkins = jenkins;
        this.crumbIssuer = crumbIssuer;
    }

    @FunctionalInterface
    private interface Route {
        HttpReply answer() throws InterruptedException;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try {
            IncomingRequest request = IncomingRequest.read(exchange);
            Caller caller = authenticate(request);
            HttpReply reply;
            try {
                reply = answer(request, caller);
            } catch (RuntimeException e) {
                reply = oops(request);
            }
            jenkins.record(new RecordedRequest(request.method(), request.path(), caller, reply.status()));
            reply.writeTo(exchange);
        } catch (InterruptedException e) {
            // Only close() interrupts a request thread; the client sees the connection drop.
            Thread.currentThread().interrupt();
        } finally {
            exchange.close();
        }
    }

    // Parsed as the realm's BearerCredentials does: scheme in any case, a blank token is no bearer at all.
    private Caller authenticate(IncomingRequest request) {
        String authorization = request.header("Authorization");
        if (authorization == null) {
            return Caller.ANONYMOUS;
        }
        String value = authorization.strip();
        if (value.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            String token = value.substring(BEARER.length()).strip();
            if (token.isEmpty()) {
                return Caller.ANONYMOUS;
            }
            return jenkins.acceptsBearer(token) ? Caller.VERIFIED_BEARER : Caller.REJECTED_CREDENTIALS;
        }
        // BasicHeaderProcessor refuses every Basic header the fixture cannot know; other schemes pass as anonymous.
        return value.regionMatches(true, 0, BASIC, 0, BASIC.length()) ? Caller.REJECTED_CREDENTIALS : Caller.ANONYMOUS;
    }

    private HttpReply answer(IncomingRequest request, Caller caller) throws InterruptedException {
        Optional<JenkinsFixture.BootProblem> boot = jenkins.bootProblem();
        if (boot.isPresent()) {
            return bootPage(boot.get());
        }
        if (caller == Caller.REJECTED_CREDENTIALS) {
            boolean basic = request.header("Authorization").strip().regionMatches(true, 0, BASIC, 0, BASIC.length());
            return HttpReply.sendError(401, "Unauthorized", request.path())
                    .header("WWW-Authenticate", (basic ? "Basic" : "Bearer") + " realm=\"Jenkins\"");
        }
        if (request.isPost() && !MODELLED_ROUTES.contains(route(request.path()))
                && !JOB_ACTION.matcher(request.path()).matches()) {
            return delivery(request, caller);
        }
        if (request.isPost() && !csrfExcluded(request, caller) && !crumbIssuer.valid(user(caller), request, crumb(request))) {
            return HttpReply.sendError(403, NO_VALID_CRUMB, request.path());
        }
        if (caller == Caller.ANONYMOUS && !readableByAnonymous(request.path())) {
            return authenticationRequired(request);
        }
        return route(request, caller);
    }

    private boolean csrfExcluded(IncomingRequest request, Caller caller) {
        // TokenReloadCrumbExclusion compares the path exactly, trailing slash included.
        if (jenkins.cascReloadToken() != null && request.path().equals(TOKEN_RELOAD + "/")) {
            return true;
        }
        return caller == Caller.VERIFIED_BEARER && jenkins.csrfExclusionForVerifiedBearer();
    }

    private static String crumb(IncomingRequest request) {
        String header = request.header(SessionCrumbIssuer.CRUMB_REQUEST_FIELD);
        return header != null ? header : request.parameter(SessionCrumbIssuer.CRUMB_REQUEST_FIELD);
    }

    private static String user(Caller caller) {
        return caller == Caller.VERIFIED_BEARER ? JenkinsFixture.VERIFIED_BEARER_USER : ANONYMOUS_USER;
    }

    // Jenkins#isSubjectToMandatoryReadPermissionCheck: always-readable prefixes and UnprotectedRootActions.
    private static boolean readableByAnonymous(String path) {
        return ALWAYS_READABLE_PATHS.stream().anyMatch(path::startsWith)
                || path.equals(TOKEN_RELOAD) || path.startsWith(TOKEN_RELOAD + "/")
                || path.equals(WebSocketAgentsRoute.PATH) || path.startsWith(WebSocketAgentsRoute.PATH + "/");
    }

    // The route a path names: without its trailing slash, and with /manage/configuration-as-code/ as its short form.
    private static String route(String path) {
        String route = path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        return route.startsWith(MANAGE + CASC + "/") ? route.substring(MANAGE.length()) : route;
    }

    // Issue 15 (webhook replay): a POST to a path no modelled API owns is taken as a webhook delivery. Webhook
    // receivers (e.g. the GitHub plugin's /github-webhook/) are UnprotectedRootActions with their own CrumbExclusion,
    // so neither the crumb nor the read check stops it; the fixture answers 200 and keeps it for the test.
    private HttpReply delivery(IncomingRequest request, Caller caller) {
        Map<String, List<String>> headers = new TreeMap<>();
        request.headers().forEach((name, values) ->
                headers.computeIfAbsent(name.toLowerCase(Locale.ROOT), key -> new ArrayList<>()).addAll(values));
        headers.replaceAll((name, values) -> List.copyOf(values));
        jenkins.recordDelivery(new ReceivedDelivery(request.method(), request.path(), request.query(),
                Collections.unmodifiableMap(headers), request.body().clone(), caller));
        return HttpReply.empty(200);
    }

    private HttpReply route(IncomingRequest request, Caller caller) throws InterruptedException {
        String path = request.path();
        String route = route(path);
        Matcher jobAction = JOB_ACTION.matcher(path);
        if (jobAction.matches()) {
            return jobAction(request, fullName(jobAction.group(1)), jobAction.group(2));
        }
        return switch (route) {
            case "/login" -> layoutPage(request, 200, "Sign in [Jenkins]", "<h1>Sign in to Jenkins</h1>");
            case "/api/json" -> api(request, jenkins.jenkinsApi());
            case "/computer/api/json" -> api(request, jenkins.computerSetApi());
            case "/crumbIssuer/api/json" -> crumbIssuerApi(request, caller);
            case "/quietDown" -> requirePost(request, () -> requireManage(request, caller, () -> quietDown(request)));
            case "/cancelQuietDown" -> requirePost(request, () -> requireManage(request, caller, this::cancelQuietDown));
            case "/safeRestart" -> requireManage(request, caller, () -> safeRestart(request));
            case CASC + "/reload" -> requirePost(request, () -> reload(request));
            case CASC + "/check" -> requirePost(request, () -> check(request));
            case CASC + "/apply" -> requirePost(request, () -> apply(request));
            case TOKEN_RELOAD -> requirePost(request, () -> tokenReload(request));
            // Issue 11 (mite schedules poll): the Varroa plugin's schedule inventory, behind the read check above.
            case "/varroa/schedules" -> jobSchedules(request);
            // Issue 15 (hibernation): the build queue, the plugin's last user request, and inbound agents.
            case "/queue/api/json" -> api(request, jenkins.queueApi());
            case "/varroa/activity" -> activity(request);
            case WebSocketAgentsRoute.PATH -> WebSocketAgentsRoute.answer(request, jenkins.agentDatabase(),
                    jenkins.agentConnectionLog());
            default -> HttpReply.sendError(404, "Not Found", path);
        };
    }

    // "/job/a/job/b" names a/b; the path arrives decoded, and a job name never holds "/".
    private static String fullName(String jobPath) {
        return String.join("/", jobPath.substring("/job/".length()).split("/job/"));
    }

    // ParameterizedJobMixIn#doBuild and #doBuildWithParameters, with BuildAuthorizationToken#checkPermission (Item.BUILD,
    // which the fixture's administrator holds) and ParametersDefinitionProperty#_doBuild / #buildWithParameters.
    private HttpReply jobAction(IncomingRequest request, String fullName, String action) {
        Optional<JenkinsFixture.JobDefinition> defined = jenkins.job(fullName);
        if (defined.isEmpty()) {
            // Jenkins#getItem finds nothing: Stapler's 404
            return HttpReply.sendError(404, "Not Found", request.path());
        }
        JenkinsFixture.JobDefinition job = defined.get();
        boolean parameterized = job.parameterized() && !job.anyParameter();
        if (action.equals("build")) {
            if (parameterized && !request.isPost()) {
                // doBuild shows the parameter form (ParametersDefinitionProperty/index.jelly) to a GET
                return layoutPage(request, 200, fullName + " [Jenkins]", "<h1>Pipeline " + escape(fullName)
                        + "</h1><p>This build requires parameters:</p><form method=\"post\" action=\"build?delay=0sec\">"
                        + job.parameterNames().stream().map(name -> "<input name=\"" + escape(name) + "\"/>")
                        .reduce("", String::concat) + "<button>Build</button></form>");
            }
            if (!request.isPost()) {
                return requireBuildPost(request);
            }
            if (parameterized) {
                // _doBuild's StaplerRequest#getSubmittedForm without the UI's "json" field (RequestImpl)
                return HttpReply.sendError(400, request.parameters().isEmpty() ? "Nothing is submitted"
                        : "This page expects a form submission", request.path());
            }
            return scheduled(jenkins.scheduleBuild(fullName, Map.of()), true);
        }
        if (!request.isPost()) {
            return requireBuildPost(request);
        }
        if (!job.parameterized()) {
            return HttpReply.sendError(400, fullName + " is not parameterized", request.path());
        }
        Map<String, String> values = new LinkedHashMap<>();
        if (job.anyParameter()) {
            request.parameters().forEach((name, value) -> {
                if (!NOT_BUILD_PARAMETERS.contains(name)) {
                    values.put(name, value);
                }
            });
        } else {
            job.parameterNames().forEach(name -> values.put(name, Optional.ofNullable(request.parameter(name)).orElse("")));
        }
        return scheduled(jenkins.scheduleBuild(fullName, values), false);
    }

    // sendRedirect(SC_CREATED, contextPath + "/" + item.getUrl()), made absolute; doBuild answers 201 even for an item
    // that was already waiting (JENKINS-66105), buildWithParameters 303 See Other then.
    private HttpReply scheduled(JenkinsFixture.ScheduledBuild scheduled, boolean alwaysCreated) {
        int status = scheduled.created() || alwaysCreated ? 201 : 303;
        return HttpReply.empty(status).header("Location", jenkins.url() + "queue/item/" + scheduled.item().id() + "/");
    }

    // BuildAuthorizationToken#checkPermission for a GET: 405, Allow: POST, Job/requirePOST.jelly.
    private HttpReply requireBuildPost(IncomingRequest request) {
        return layoutPage(request, 405, "Form post required [Jenkins]", "<p>You must use POST method to trigger builds. "
                + "(From scripts you may instead pass a per-project authentication token, or authenticate with your API "
                + "token.) If you see this page, it may be because a plugin offered a GET link; file a bug report for "
                + "that plugin.</p><form method=\"POST\"><input type=\"submit\" value=\"Proceed\"/></form>")
                .header("Allow", "POST");
    }

    // Issue 11 (mite schedules poll): 200 with the settable inventory, 404 (Stapler's) while none is set.
    private HttpReply jobSchedules(IncomingRequest request) {
        String inventory = jenkins.jobScheduleInventory();
        return inventory == null ? HttpReply.sendError(404, "Not Found", request.path())
                : HttpReply.of(200, HttpReply.JSON, inventory);
    }

    // Issue 15 (hibernation): VarroaAction#doActivity, 404 (Stapler's) while the test set none.
    private HttpReply activity(IncomingRequest request) {
        return jenkins.lastUserRequestEpochMillis()
                .map(millis -> HttpReply.of(200, HttpReply.JSON,
                        JSON.createObjectNode().put("lastUserRequestEpochMillis", millis).toString()))
                .orElseGet(() -> HttpReply.sendError(404, "Not Found", request.path()));
    }

    // RequirePOST.Processor: 405 with Allow before the action runs.
    private static HttpReply requirePost(IncomingRequest request, Route route) throws InterruptedException {
        if (!request.isPost()) {
            return HttpReply.of(405, HttpReply.HTML, "<html><head><title>POST required</title></head><body>"
                            + "POST is required for " + escape(request.path()) + "<br>"
                            + "<form method='POST'><input type='submit' value='Try POSTing'></form></body></html>")
                    .header("Allow", "POST");
        }
        return route.answer();
    }

    // Jenkins#checkPermission(MANAGE), answered by AccessDeniedHandlerImpl: 403, the AccessDeniedException3 headers
    // (Overall/Manage is implied by Administer) and accessDenied.jelly with the exception's message.
    private HttpReply requireManage(IncomingRequest request, Caller caller, Route route) throws InterruptedException {
        if (caller == Caller.VERIFIED_BEARER && jenkins.bearerMayManage()) {
            return route.answer();
        }
        String user = user(caller);
        return layoutPage(request, 403, "Access Denied [Jenkins]", "<h1>Access Denied</h1><p class=\"error\">"
                + escape(user) + " is missing the Overall/Manage permission</p>")
                .header("X-You-Are-Authenticated-As", user)
                .header("X-You-Are-In-Group-Disabled", "JENKINS-39402: use -Dhudson.security.AccessDeniedException2"
                        + ".REPORT_GROUP_HEADERS=true or use /whoAmI to diagnose")
                .header("X-Required-Permission", "hudson.model.Hudson.Manage")
                .header("X-Permission-Implied-By", "hudson.model.Hudson.Administer");
    }

    // Jenkins#doCancelQuietDown returns HttpRedirect("."); a safe restart still waiting for builds is abandoned.
    private HttpReply cancelQuietDown() {
        jenkins.cancelQuietDown();
        return redirect(jenkins.url().toString());
    }

    // Jenkins#doSafeRestart (not @RequirePOST): GET shows _safeRestart.jelly, "cancel" cancels quiet-down, POST
    // verifies the lifecycle (RestartNotSupportedException reaches Stapler: the error page, 500) and queues the
    // restart, answering HttpResponses.redirectToDot() at once; other methods only redirect.
    private HttpReply safeRestart(IncomingRequest request) {
        Optional<String> notSupported = jenkins.restartNotSupported();
        if (request.method().equals("GET")) {
            String main = notSupported.isPresent() ? "<p>Jenkins cannot restart itself as currently configured.</p>"
                    : "<form method=\"post\" action=\"safeRestart\"><input name=\"message\"/>"
                    + "<button type=\"submit\">Restart</button></form>";
            return layoutPage(request, 200, "Safe restart [Jenkins]", "<h1>Safe restart</h1>" + main);
        }
        if (request.parameter("cancel") != null) {
            return cancelQuietDown();
        }
        if (request.isPost()) {
            if (notSupported.isPresent()) {
                return oops(request);
            }
            jenkins.safeRestart(request.parameter("message"));
        }
        return redirect(jenkins.url().toString());
    }

    private HttpReply quietDown(IncomingRequest request) throws InterruptedException {
        jenkins.quietDown(request.parameter("message"));
        if (Boolean.parseBoolean(request.parameter("block"))) {
            jenkins.awaitQuiet(integer(request.parameter("timeout")));
        }
        // Jenkins#doQuietDown returns HttpRedirect(".").
        return redirect(jenkins.url().toString());
    }

    private HttpReply reload(IncomingRequest request) throws InterruptedException {
        Optional<String> failure = jenkins.configure(CASC + "/reload", null);
        if (failure.isEmpty()) {
            // doReload's sendRedirect("") resolves against /configuration-as-code/reload.
            return redirect(jenkins.url() + CASC.substring(1) + "/");
        }
        // handleExceptionOnReloading forwards to error.jelly and never sets a status: the failure answers 200.
        return layoutPage(request, 200, "Error loading configuration [Jenkins]",
                "<h1>Error loading configuration</h1><p>" + escape(failure.get()) + "</p>");
    }

    private HttpReply tokenReload(IncomingRequest request) throws InterruptedException {
        String token = jenkins.cascReloadToken();
        if (token == null) {
            return HttpReply.sendError(404, "Not Found", request.path());
        }
        String presented = request.parameter(RELOAD_TOKEN_PARAMETER);
        if (presented == null || !MessageDigest.isEqual(token.getBytes(StandardCharsets.UTF_8),
                presented.getBytes(StandardCharsets.UTF_8))) {
            return HttpReply.sendError(401, "Unauthorized", request.path());
        }
        Optional<String> failure = jenkins.configure(TOKEN_RELOAD + "/", null);
        if (failure.isEmpty()) {
            return HttpReply.empty(200);
        }
        String body = JSON.createObjectNode()
                .put("status", "error")
                .put("message", "Failed to reload configuration: " + failure.get())
                .toString();
        return HttpReply.of(500, "application/json;charset=UTF-8", body);
    }

    private HttpReply check(IncomingRequest request) {
        String problem;
        try {
            YAML.readTree(new String(request.body(), StandardCharsets.UTF_8));
            problem = jenkins.configurationRejection().orElse(null);
        } catch (IOException e) {
            problem = e.getMessage();
        }
        ArrayNode issues = JSON.createArrayNode();
        if (problem != null) {
            issues.addObject().put("line", -1).put("message", problem);
        }
        return HttpReply.of(problem == null ? 200 : 400, "application/json", issues.toString());
    }

    private HttpReply apply(IncomingRequest request) throws InterruptedException {
        String yaml = new String(request.body(), StandardCharsets.UTF_8);
        try {
            YAML.readTree(yaml);
        } catch (IOException e) {
            return oops(request);
        }
        // doApply does not catch the ConfiguratorException, so Stapler turns it into a 500.
        return jenkins.configure(CASC + "/apply", yaml).isEmpty() ? HttpReply.empty(200) : oops(request);
    }

    private HttpReply api(IncomingRequest request, ExportedObject bean) {
        return withApiHeaders(HttpReply.of(200, HttpReply.JSON, bean.render(request.parameter("tree"), integer(request.parameter("depth")))));
    }

    private HttpReply crumbIssuerApi(IncomingRequest request, Caller caller) {
        HttpReply reply = HttpReply.of(200, HttpReply.JSON, "");
        String crumb = crumbIssuer.crumb(user(caller), request, crumbIssuer.session(request, reply));
        ExportedObject bean = new ExportedObject("hudson.security.csrf.DefaultCrumbIssuer")
                .with("crumb", crumb)
                .with("crumbRequestField", SessionCrumbIssuer.CRUMB_REQUEST_FIELD);
        return withApiHeaders(reply.body(bean.render(request.parameter("tree"), integer(request.parameter("depth")))));
    }

    // HudsonAuthenticationEntryPoint#commence for anonymous: 403, a page that sends browsers to the login form.
    private HttpReply authenticationRequired(IncomingRequest request) {
        String from = request.path() + (request.query() == null ? "" : "?" + request.query());
        String loginForm = "/login?from=" + URLEncoder.encode(from, StandardCharsets.UTF_8);
        String page = "<html><head><meta http-equiv='refresh' content='1;url=" + loginForm + "'/>"
                + "<script>window.location.replace('" + loginForm + "');</script></head>"
                + "<body style='background-color:white; color:white;'>\n\n\nAuthentication required\n<!--\n-->\n\n</body></html>";
        return withAdvertisedHeaders(HttpReply.of(403, HttpReply.HTML, page))
                .header("X-You-Are-Authenticated-As", ANONYMOUS_USER)
                .header("X-Required-Permission", "hudson.model.Hudson.Read")
                .header("X-Permission-Implied-By", "hudson.security.Permission.GenericRead")
                .header("X-Permission-Implied-By", "hudson.model.Hudson.Administer");
    }

    private static HttpReply bootPage(JenkinsFixture.BootProblem problem) {
        if (problem.restarting()) {
            // hudson.util.HudsonIsRestarting#doDynamic and its index.jelly, for a safe restart
            return HttpReply.of(503, HttpReply.HTML, "<!DOCTYPE html><html><head><title>Restarting Jenkins</title></head>"
                    + "<body><h1>Jenkins is restarting</h1>"
                    + "<p>Your browser will reload automatically when Jenkins is ready.</p>"
                    + "<div><p><strong>Safe Restart</strong></p><p>Builds on agents can usually continue.</p></div>"
                    + "</body></html>")
                    .header("Expires", "0")
                    .header("Cache-Control", "no-cache,no-store,must-revalidate");
        }
        if (problem.failure() == null) {
            return HttpReply.of(503, HttpReply.HTML, "<!DOCTYPE html><html><head><title>Starting Jenkins</title></head>"
                    + "<body><h1>Jenkins is getting ready to work</h1>"
                    + "<p>Your browser will reload automatically when Jenkins is ready</p></body></html>");
        }
        return HttpReply.of(503, HttpReply.HTML, "<!DOCTYPE html><html><head><title>Jenkins failed to start</title></head>"
                + "<body><h1>Jenkins failed to start</h1><pre>" + escape(problem.failure()) + "</pre></body></html>");
    }

    // Jenkins' oops page for an exception that reached Stapler; it shows a logging id, not the exception.
    private HttpReply oops(IncomingRequest request) {
        return layoutPage(request, 500, "Jenkins [Jenkins]", "<h1>Oops!</h1>"
                + "<p>A problem occurred while processing the request.</p><p>Logging ID=" + UUID.randomUUID() + "</p>");
    }

    // lib/layout/layout.jelly: its fixed headers, Functions#advertiseHeaders, and a session it always opens.
    private HttpReply layoutPage(IncomingRequest request, int status, String title, String main) {
        HttpReply reply = HttpReply.of(status, HttpReply.HTML, "<!DOCTYPE html><html><head><title>" + escape(title)
                + "</title></head><body id=\"jenkins\" data-version=\"" + escape(jenkins.version()) + "\">"
                + "<div id=\"main-panel\">" + main + "</div></body></html>");
        crumbIssuer.session(request, reply);
        return withAdvertisedHeaders(reply)
                .header("Expires", "0")
                .header("Cache-Control", "no-cache,no-store,must-revalidate")
                .header("X-Hudson-Theme", "default")
                .header("Referrer-Policy", "same-origin")
                .header("Cross-Origin-Opener-Policy", "same-origin");
    }

    private HttpReply withAdvertisedHeaders(HttpReply reply) {
        return reply.header("X-Hudson", X_HUDSON)
                .header("X-Jenkins", jenkins.version())
                .header("X-Jenkins-Session", jenkins.sessionHash());
    }

    // hudson.model.Api#setHeaders
    private HttpReply withApiHeaders(HttpReply reply) {
        return reply.header("X-Jenkins", jenkins.version())
                .header("X-Jenkins-Session", jenkins.sessionHash())
                .header("X-Content-Type-Options", "nosniff")
                .header("X-Frame-Options", "deny");
    }

    private static HttpReply redirect(String location) {
        return HttpReply.empty(302).header("Location", location);
    }

    // Stapler binds a missing int @QueryParameter to 0.
    private static int integer(String value) {
        return value == null || value.isBlank() ? 0 : Integer.parseInt(value.trim());
    }
}
