package dev.varroa.gateway.stream;

import dev.varroa.gateway.ca.CertificateAuthority;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * What every mite stream on this gateway shares.
 *
 * @param buildData build events, job schedules, claims and pipeline calls of every stream
 * @param logs console log chunks of every stream
 * @param sessionStarted called after a stream's Hello was accepted (the queued-command check hooks in here)
 * @param routesRetained true once the gateway crashed: ending streams then leave their routes behind, as a killed process would
 * @param activity streams opened and ended, Jenkins version and plugin changes, as activity events
 * @param liveControllers whether a certificate's Controller still exists with its UID (checked on stream open)
 */
record StreamServices(
    String gatewayId,
    Duration heartbeatInterval,
    MiteSessions sessions,
    RouteTable routes,
    CertificateAuthority ca,
    JenkinsTokenRelay tokens,
    BuildDataRelay buildData,
    LogAppendRelay logs,
    ScheduledExecutorService timers,
    ExecutorService pool,
    Clock clock,
    Consumer<MiteSession> sessionStarted,
    BooleanSupplier routesRetained,
    MiteActivity activity,
    LiveControllerCheck liveControllers) {
}
