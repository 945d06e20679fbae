package dev.varroa.operator.home;

import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.HomeStatus;
import dev.varroa.operator.render.resolve.ResolvedController;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The home step of a Controller pass: restores JENKINS_HOME from spec.restore's snapshot before Jenkins starts
 * ({@link HomeRestore}) and moves it to another storage class once confirmed ({@link HomeMove}); says what the apply
 * step may do with the StatefulSet meanwhile, and writes status.home. Without either, it reads no more than the caches.
 */
public final class JenkinsHomeStep {
  private static final Logger LOG = LoggerFactory.getLogger(JenkinsHomeStep.class);
  private final Clock clock;
  private final HomeCopySettings settings;
  /**
   * status.home and the home conditions as this operator last wrote them, per Controller uid: a pass that follows an
   * event (a claim deleted a moment ago) may read a Controller whose status the informer has not refreshed yet, or
   * that a stopping operator's last write made older, and must not redo a step.
   */
  private final Map<String, Written> written = new ConcurrentHashMap<>();

  private record Written(HomeStatus home, List<Condition> conditions) {}

  public JenkinsHomeStep(Clock clock, HomeCopySettings settings) {
    this.clock = clock;
    this.settings = settings;
  }

  /**
   * @param desired the rendered StatefulSet
   * @param existing the StatefulSet the informer holds
   * @param claim the home claim the informer holds, for status.home
   */
  public HomePass pass(KubernetesClient client, Controller controller, ResolvedController resolved, StatefulSet desired,
      Optional<StatefulSet> existing, Optional<PersistentVolumeClaim> claim) {
    String uid = controller.getMetadata().getUid();
    Written remembered = written.get(uid);
    HomeStatus home = HomeStatusCopy.of(remembered != null ? remembered.home()
        : controller.getStatus() == null ? null : controller.getStatus().home);
    HomeContext context = new HomeContext(controller, resolved, desired, existing, clock.instant(),
        new HomeNames(desired.getMetadata().getName()));
    describe(home, context, claim);
    HomeVolumes volumes = new HomeVolumes(client);
    String before = steps(home);
    HomePass decided = decide(home, context, volumes, new HomeCopyJobs(client, volumes));
    List<Condition> conditions = new ArrayList<>(decided.conditions());
    if (remembered != null) {
      remembered.conditions().stream().filter(c -> conditions.stream().noneMatch(d -> d.type.equals(c.type)))
          .forEach(conditions::add);
    }
    HomePass pass = new HomePass(decided.home(), decided.workload(), conditions, decided.recheck());
    written.put(uid, new Written(HomeStatusCopy.of(pass.home()), pass.conditions()));
    String after = steps(pass.home());
    boolean newConditions = decided.conditions().stream().anyMatch(c -> remembered == null || remembered.conditions()
        .stream().noneMatch(r -> r.type.equals(c.type) && r.status == c.status && java.util.Objects.equals(r.reason,
            c.reason)));
    if (!before.equals(after) || newConditions) {
      LOG.info("event=home_step namespace={} controller={} from=\"{}\" to=\"{}\" workload={} conditions=\"{}\"",
          context.namespace(), controller.getMetadata().getName(), before, after, pass.workload().mode(),
          decided.conditions().stream().map(c -> c.type + "=" + c.status + "/" + c.reason).toList());
    }
    return pass;
  }

  private static String steps(HomeStatus home) {
    return "restore=" + (home.restore == null ? "-" : home.restore.step) + " move="
        + (home.move == null ? "-" : home.move.step);
  }

  /** Forgets a deleted Controller. */
  public void forget(Controller controller) {
    written.remove(controller.getMetadata().getUid());
  }

  private HomePass decide(HomeStatus home, HomeContext context, HomeVolumes volumes, HomeCopyJobs jobs) {
    HomeRestore restore = new HomeRestore(volumes, context);
    HomeMove move = new HomeMove(volumes, jobs, context, settings);
    Optional<String> asked = context.resolved().restoreFrom();
    if (HomeProgress.active(home.restore)) {
      return asked.equals(Optional.of(home.restore.from)) ? restore.advance(home, home.restore.from)
          : restore.cancel(home, home.restore.from);
    }
    if (HomeProgress.active(home.move)) {
      return move.advance(home);
    }
    if (HomeProgress.failed(home.restore) && asked.equals(Optional.of(home.restore.from))) {
      // not retried until spec.restore names it again
      return restore.failedBefore(home);
    }
    if (HomeProgress.failed(home.restore)) {
      home.restore = null;
    }
    if (asked.isPresent() && !asked.get().equals(home.restoredFrom)) {
      return restore.advance(home, asked.get());
    }
    if (HomeProgress.failed(home.move)) {
      return move.failedBefore(home);
    }
    return move.consider(home);
  }

  /** Where the home is now, from the informer's claim. */
  private static void describe(HomeStatus home, HomeContext context, Optional<PersistentVolumeClaim> claim) {
    home.claimName = context.names().claim();
    claim.filter(HomeClaims::bound).ifPresent(c -> {
      home.volumeName = c.getSpec().getVolumeName();
      home.storageClassName = c.getSpec().getStorageClassName();
    });
  }
}
