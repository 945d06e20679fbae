package dev.varroa.testfixtures.kube.job;

import dev.varroa.testfixtures.kube.ReconcileQueue;
import dev.varroa.testfixtures.kube.csi.CsiStandIn;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plays the Job controller and the kubelet for batch/v1 Jobs whose pod mounts claims: for each new Job it creates
 * the pod (labels {@code job-name} and {@code batch.kubernetes.io/job-name}, a controller reference to the Job), runs
 * the pod's single container's command on this machine, and writes the pod's terminated state and the Job's status
 * (succeeded or failed, conditions Complete or Failed) as the real controllers would.
 *
 * <p><b>The contract for a Job under test.</b> There is no container here: the command runs locally
 * ({@code /bin/sh}, rsync and coreutils are on the machine), with no image. Each volumeMount is replaced by a local
 * folder (a PersistentVolumeClaim by its {@link CsiStandIn#folder} plus subPath, emptyDir by a scratch folder,
 * configMap and secret by their files), and the replacement is textual: every occurrence of a mount path in the
 * container's {@code command}, {@code args}, {@code env} values and {@code workingDir} becomes the local path, and so
 * does {@code terminationMessagePath} (default {@code /dev/termination-log}), mapped to a file whose content becomes
 * the terminated state's message. So the Job must name its paths in its args or env (for example {@code rsync -aHAX
 * /mnt/source/ /mnt/target/} or {@code SOURCE=/mnt/source}), never only inside a script baked into an image; the
 * command must be set. Kubernetes' {@code $(VAR)} references are expanded first.
 *
 * <p>A pod whose claims are not Bound stays Pending (PodScheduled=False, Unschedulable) until they are. A failed pod
 * is replaced at once (no back-off delay) until {@code spec.backoffLimit} (default 6) is exceeded;
 * {@code activeDeadlineSeconds} kills the running pod and fails the Job with reason DeadlineExceeded; a suspended Job
 * does not start. Deleting a Job kills its command and deletes its pods (the garbage collector's part), also for
 * foreground and orphan deletion. Not played: several containers, init containers, completions or parallelism above
 * one, Indexed Jobs, podFailurePolicy, read-only mounts, restarts in place for restartPolicy OnFailure.
 */
public final class JobStandIn implements AutoCloseable {
  public static final String JOB_NAME_LABEL = "batch.kubernetes.io/job-name";
  public static final String LEGACY_JOB_NAME_LABEL = "job-name";
  static final String CONTROLLER_UID_LABEL = "batch.kubernetes.io/controller-uid";
  static final int DEFAULT_BACKOFF_LIMIT = 6;
  static final Duration DEFAULT_WAIT = Duration.ofSeconds(60);
  private static final String POD_NAME_CHARS = "bcdfghjklmnpqrstvwxz2456789";
  private static final Logger LOG = LoggerFactory.getLogger(JobStandIn.class);

  private final KubernetesClient client;
  private final PodFiles files;
  private final Path scratch;
  private final boolean ownsScratch;
  private final ReconcileQueue queue;
  private final ExecutorService runner = Executors.newCachedThreadPool(daemon("job-stand-in-run"));
  private final ScheduledExecutorService deadlines = Executors.newSingleThreadScheduledExecutor(daemon("job-stand-in-deadline"));
  private final Map<String, JobAttempt> running = new ConcurrentHashMap<>();
  private final Map<String, JobRun> ended = new ConcurrentHashMap<>();
  private final Map<String, List<JobRun>> runs = new ConcurrentHashMap<>();
  private final AtomicBoolean killNext = new AtomicBoolean();
  private final SecureRandom random = new SecureRandom();
  private final List<SharedIndexInformer<?>> informers = new ArrayList<>();
  private SharedIndexInformer<Job> jobs;

  private JobStandIn(KubernetesClient client, CsiStandIn csi, Path scratch, boolean ownsScratch) {
    this.client = client;
    this.files = new PodFiles(client, csi);
    this.scratch = scratch;
    this.ownsScratch = ownsScratch;
    this.queue = new ReconcileQueue("job-stand-in", key -> reconcile(key.namespace(), key.name()));
  }

  /** A Job stand-in whose pods mount the claims of this CSI stand-in. */
  public static Builder builder(KubernetesClient client, CsiStandIn csi) {
    return new Builder(client, csi);
  }

  /** Chooses the namespace and the scratch folder, then {@link #start()}s the stand-in. */
  public static final class Builder {
    private final KubernetesClient client;
    private final CsiStandIn csi;
    private String namespace;
    private Path scratch;

    private Builder(KubernetesClient client, CsiStandIn csi) {
      this.client = Objects.requireNonNull(client, "client");
      this.csi = Objects.requireNonNull(csi, "csi");
    }

    /** Runs the Jobs of this namespace only (by default, all). */
    public Builder namespace(String namespace) {
      this.namespace = namespace;
      return this;
    }

    /** Where pods' emptyDir, configMap and secret files, logs and termination messages go (default: a temp folder). */
    public Builder scratch(Path scratch) {
      this.scratch = scratch;
      return this;
    }

    public JobStandIn start() {
      Path folder = scratch;
      boolean owned = folder == null;
      try {
        folder = owned ? Files.createTempDirectory("varroa-job-stand-in") : Files.createDirectories(folder);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot create the Job stand-in's scratch folder", e);
      }
      JobStandIn standIn = new JobStandIn(client, csi, folder.toAbsolutePath(), owned);
      try {
        standIn.watch(namespace);
      } catch (RuntimeException e) {
        standIn.close();
        throw e;
      }
      return standIn;
    }
  }

  private void watch(String namespace) {
    ResourceEventHandler<Job> jobEvents = handler(j -> queue.add(key(j)), this::jobGone);
    jobs = namespace == null ? client.batch().v1().jobs().inAnyNamespace().inform(jobEvents)
        : client.batch().v1().jobs().inNamespace(namespace).inform(jobEvents);
    informers.add(jobs);
    // a pod waiting for its claims starts when they are bound
    ResourceEventHandler<PersistentVolumeClaim> claimEvents = handler(this::claimChanged, c -> {});
    informers.add(namespace == null ? client.persistentVolumeClaims().inAnyNamespace().inform(claimEvents)
        : client.persistentVolumeClaims().inNamespace(namespace).inform(claimEvents));
  }

  private void claimChanged(PersistentVolumeClaim claim) {
    if (claim.getStatus() != null && "Bound".equals(claim.getStatus().getPhase())) {
      jobs.getStore().list().stream()
          .filter(j -> j.getMetadata().getNamespace().equals(claim.getMetadata().getNamespace()) && !finished(j))
          .forEach(j -> queue.add(key(j)));
    }
  }

  // ---- the controller ----

  private void reconcile(String namespace, String name) {
    Job job = client.batch().v1().jobs().inNamespace(namespace).withName(name).get();
    if (job == null) {
      return;
    }
    String uid = job.getMetadata().getUid();
    if (job.getMetadata().getDeletionTimestamp() != null) {
      stop(uid);
      collectPods(job);
      return;
    }
    JobRun run = ended.remove(uid);
    if (run != null) {
      running.remove(uid);
      runs.computeIfAbsent(namespace + "/" + name, k -> new CopyOnWriteArrayList<>()).add(run);
      job = recordEnd(job, run);
      if (job == null) {
        return; // deleted while its pod ran
      }
    }
    if (finished(job) || running.containsKey(uid) || Boolean.TRUE.equals(job.getSpec().getSuspend())) {
      return;
    }
    Job current = job;
    Pod pod = waitingPod(current).orElseGet(() -> createPod(current));
    List<String> unbound = files.unboundClaims(pod);
    if (!unbound.isEmpty()) {
      if (pod.getStatus() == null || pod.getStatus().getConditions().isEmpty()) {
        updatePodStatus(pod, JobStatuses.unschedulable(unbound));
      }
      return;
    }
    start(current, pod);
  }

  private void start(Job job, Pod pod) {
    String uid = job.getMetadata().getUid();
    String namespace = job.getMetadata().getNamespace();
    List<Container> containers = pod.getSpec().getContainers();
    Path podScratch = scratch.resolve(namespace).resolve(pod.getMetadata().getName());
    LocalCommand command;
    try {
      if (containers.size() != 1 || !Optional.ofNullable(pod.getSpec().getInitContainers()).orElse(List.of()).isEmpty()) {
        throw new IllegalArgumentException("the Job stand-in runs pods with exactly one container and no init"
            + " containers; Job " + namespace + "/" + job.getMetadata().getName() + " has " + containers.size()
            + " containers");
      }
      Container container = containers.get(0);
      command = LocalCommand.of(container, files.environment(pod, container),
          files.mounts(pod, container, podScratch), podScratch.resolve("termination-log"));
    } catch (IllegalArgumentException e) {
      // a Job the stand-in cannot run fails with the reason, instead of retrying for ever
      failUnsupported(job, e.getMessage());
      return;
    }
    JobAttempt attempt = new JobAttempt(pod.getMetadata().getName(), command, podScratch,
        "FallbackToLogsOnError".equals(containers.get(0).getTerminationMessagePolicy()));
    running.put(uid, attempt);
    if (killNext.getAndSet(false)) {
      attempt.kill("Error");
    }
    Instant now = Instant.now();
    updatePodStatus(pod, JobStatuses.running(pod, now));
    Job started = client.batch().v1().jobs().inNamespace(namespace).withName(job.getMetadata().getName()).editStatus(j -> {
      JobStatus status = Optional.ofNullable(j.getStatus()).orElseGet(JobStatus::new);
      if (status.getStartTime() == null) {
        status.setStartTime(JobStatuses.time(now));
      }
      status.setActive(1);
      status.setReady(1);
      j.setStatus(status);
      return j;
    });
    Long deadline = job.getSpec().getActiveDeadlineSeconds();
    if (deadline != null) {
      Instant end = Instant.parse(started.getStatus().getStartTime()).plusSeconds(deadline);
      deadlines.schedule(() -> attempt.kill(JobStatuses.DEADLINE_EXCEEDED),
          Math.max(0, Duration.between(Instant.now(), end).toMillis()), TimeUnit.MILLISECONDS);
    }
    LOG.info("event=job_pod_started job={}/{} pod={} argv=\"{}\"", namespace, job.getMetadata().getName(),
        pod.getMetadata().getName(), String.join(" ", command.argv()));
    attempt.start(runner, run -> {
      ended.put(uid, run);
      queue.add(key(job));
    });
  }

  /**
   * Writes the pod's terminated state and counts the run on the Job; ends the Job when it succeeded or gave up.
   * Returns the updated Job, or null when it is gone.
   */
  private Job recordEnd(Job job, JobRun run) {
    String namespace = job.getMetadata().getNamespace();
    Pod pod = client.pods().inNamespace(namespace).withName(run.podName()).get();
    if (pod != null) {
      updatePodStatus(pod, JobStatuses.terminated(pod, run));
    }
    int backoffLimit = Optional.ofNullable(job.getSpec().getBackoffLimit()).orElse(DEFAULT_BACKOFF_LIMIT);
    LOG.info("event=job_pod_ended job={}/{} pod={} exit_code={} reason={}", namespace, job.getMetadata().getName(),
        run.podName(), run.exitCode(), run.reason());
    if (client.batch().v1().jobs().inNamespace(namespace).withName(job.getMetadata().getName()).get() == null) {
      return null;
    }
    return client.batch().v1().jobs().inNamespace(namespace).withName(job.getMetadata().getName()).editStatus(j -> {
      JobStatus status = Optional.ofNullable(j.getStatus()).orElseGet(JobStatus::new);
      status.setActive(0);
      status.setReady(0);
      List<JobCondition> conditions = new ArrayList<>(Optional.ofNullable(status.getConditions()).orElse(List.of()));
      if (run.succeeded()) {
        status.setSucceeded(Optional.ofNullable(status.getSucceeded()).orElse(0) + 1);
        status.setCompletionTime(JobStatuses.time(run.finishedAt()));
        conditions.addAll(JobStatuses.complete(run.finishedAt()));
      } else {
        int failed = Optional.ofNullable(status.getFailed()).orElse(0) + 1;
        status.setFailed(failed);
        if (JobStatuses.DEADLINE_EXCEEDED.equals(run.reason())) {
          conditions.addAll(JobStatuses.failed(JobStatuses.DEADLINE_EXCEEDED,
              "Job was active longer than specified deadline", run.finishedAt()));
        } else if (failed > backoffLimit) {
          conditions.addAll(JobStatuses.failed(JobStatuses.BACKOFF_LIMIT_EXCEEDED,
              "Job has reached the specified backoff limit", run.finishedAt()));
        }
      }
      status.setConditions(conditions);
      j.setStatus(status);
      return j;
    });
  }

  private void failUnsupported(Job job, String message) {
    LOG.warn("event=job_unsupported job={}/{} message=\"{}\"", job.getMetadata().getNamespace(),
        job.getMetadata().getName(), message);
    client.batch().v1().jobs().inNamespace(job.getMetadata().getNamespace()).withName(job.getMetadata().getName())
        .editStatus(j -> {
          JobStatus status = Optional.ofNullable(j.getStatus()).orElseGet(JobStatus::new);
          status.setActive(0);
          status.setFailed(Optional.ofNullable(status.getFailed()).orElse(0) + 1);
          Instant now = Instant.now();
          if (status.getStartTime() == null) {
            status.setStartTime(JobStatuses.time(now));
          }
          List<JobCondition> conditions = new ArrayList<>(Optional.ofNullable(status.getConditions()).orElse(List.of()));
          conditions.addAll(JobStatuses.failed("StandInUnsupported", message, now));
          status.setConditions(conditions);
          j.setStatus(status);
          return j;
        });
  }

  private Optional<Pod> waitingPod(Job job) {
    return podsOf(job).stream()
        .filter(p -> p.getStatus() == null || p.getStatus().getPhase() == null || "Pending".equals(p.getStatus().getPhase()))
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
        .findFirst();
  }

  private List<Pod> podsOf(Job job) {
    return client.pods().inNamespace(job.getMetadata().getNamespace())
        .withLabel(CONTROLLER_UID_LABEL, job.getMetadata().getUid()).list().getItems();
  }

  private Pod createPod(Job job) {
    var template = job.getSpec().getTemplate();
    Map<String, String> labels = new LinkedHashMap<>(Optional.ofNullable(template.getMetadata().getLabels()).orElse(Map.of()));
    labels.put(JOB_NAME_LABEL, job.getMetadata().getName());
    labels.put(LEGACY_JOB_NAME_LABEL, job.getMetadata().getName());
    labels.put(CONTROLLER_UID_LABEL, job.getMetadata().getUid());
    labels.put("controller-uid", job.getMetadata().getUid());
    Pod pod = new PodBuilder()
        .withNewMetadata()
        .withNamespace(job.getMetadata().getNamespace())
        .withName(job.getMetadata().getName() + "-" + suffix())
        .withLabels(labels)
        .withAnnotations(template.getMetadata().getAnnotations())
        .withOwnerReferences(new OwnerReferenceBuilder()
            .withApiVersion("batch/v1").withKind("Job")
            .withName(job.getMetadata().getName()).withUid(job.getMetadata().getUid())
            .withController(true).withBlockOwnerDeletion(true)
            .build())
        .endMetadata()
        .withSpec(new PodSpecBuilder(template.getSpec()).build())
        .build();
    return client.resource(pod).create();
  }

  private void updatePodStatus(Pod pod, io.fabric8.kubernetes.api.model.PodStatus status) {
    client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).editStatus(p -> {
      p.setStatus(status);
      return p;
    });
  }

  /** The garbage collector's part for a Job being deleted with the foreground or orphan policy. */
  private void collectPods(Job job) {
    List<String> finalizers = Optional.ofNullable(job.getMetadata().getFinalizers()).orElse(List.of());
    if (finalizers.contains("foregroundDeletion")) {
      podsOf(job).forEach(p -> client.resource(p).withGracePeriod(0).delete());
    }
    if (finalizers.contains("orphan")) {
      podsOf(job).forEach(p -> client.pods().inNamespace(p.getMetadata().getNamespace()).withName(p.getMetadata().getName())
          .edit(q -> {
            q.getMetadata().setOwnerReferences(List.of());
            return q;
          }));
    }
    if (finalizers.contains("foregroundDeletion") || finalizers.contains("orphan")) {
      client.batch().v1().jobs().inNamespace(job.getMetadata().getNamespace()).withName(job.getMetadata().getName())
          .edit(j -> {
            j.getMetadata().getFinalizers().removeAll(List.of("foregroundDeletion", "orphan"));
            return j;
          });
    }
  }

  /** A Job deleted in the background: its command stops and the garbage collector's part deletes its pods. */
  private void jobGone(Job job) {
    stop(job.getMetadata().getUid());
    boolean orphaned = Optional.ofNullable(job.getMetadata().getFinalizers()).orElse(List.of()).contains("orphan");
    if (!orphaned) {
      runner.execute(() -> client.pods().inNamespace(job.getMetadata().getNamespace())
          .withLabel(CONTROLLER_UID_LABEL, job.getMetadata().getUid()).withGracePeriod(0).delete());
    }
  }

  private void stop(String uid) {
    JobAttempt attempt = running.get(uid);
    if (attempt != null) {
      attempt.kill("Error");
    }
  }

  static boolean finished(Job job) {
    return job.getStatus() != null && job.getStatus().getConditions() != null && job.getStatus().getConditions().stream()
        .anyMatch(c -> ("Complete".equals(c.getType()) || "Failed".equals(c.getType())) && "True".equals(c.getStatus()));
  }

  // ---- faults ----

  /** The next pod to start is killed as it starts (exit 137), its command cut short, as a node losing it would. */
  public void killNext() {
    killNext.set(true);
  }

  /** Kills the Job's running pod now (exit 137): the command is cut short wherever it is. */
  public void kill(String namespace, String jobName) {
    Job job = client.batch().v1().jobs().inNamespace(namespace).withName(jobName).get();
    JobAttempt attempt = job == null ? null : running.get(job.getMetadata().getUid());
    if (attempt == null) {
      throw new IllegalStateException("Job " + namespace + "/" + jobName + " has no running pod to kill: wait for one"
          + " with awaitRunning(namespace, jobName)");
    }
    attempt.kill("Error");
  }

  // ---- what tests read ----

  /** Every pod run of the Job so far, in order (an empty list before the first pod ends). */
  public List<JobRun> runs(String namespace, String jobName) {
    return List.copyOf(runs.getOrDefault(namespace + "/" + jobName, List.of()));
  }

  /** Waits until the Job has a Complete or Failed condition and returns it. */
  public Job awaitFinished(String namespace, String jobName) {
    return awaitFinished(namespace, jobName, DEFAULT_WAIT);
  }

  public Job awaitFinished(String namespace, String jobName, Duration timeout) {
    return client.batch().v1().jobs().inNamespace(namespace).withName(jobName)
        .waitUntilCondition(j -> j != null && finished(j), timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Waits until a pod of the Job is Running (its command started) and returns the pod. */
  public Pod awaitRunning(String namespace, String jobName) {
    return awaitRunning(namespace, jobName, DEFAULT_WAIT);
  }

  public Pod awaitRunning(String namespace, String jobName, Duration timeout) {
    try {
      return client.pods().inNamespace(namespace).withLabel(JOB_NAME_LABEL, jobName)
          .informOnCondition(pods -> pods.stream().anyMatch(JobStandIn::running))
          .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
          .stream().filter(JobStandIn::running).findFirst().orElseThrow();
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("no pod of Job " + namespace + "/" + jobName + " was Running within " + timeout, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for Job " + namespace + "/" + jobName, e);
    }
  }

  private static boolean running(Pod pod) {
    return pod.getStatus() != null && "Running".equals(pod.getStatus().getPhase());
  }

  @Override
  public void close() {
    informers.forEach(SharedIndexInformer::close);
    queue.close();
    running.values().forEach(a -> a.kill("Error"));
    deadlines.shutdownNow();
    runner.shutdownNow();
    try {
      runner.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (ownsScratch) {
      deleteTree(scratch);
    }
  }

  private static void deleteTree(Path root) {
    try (var paths = Files.walk(root)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      LOG.warn("event=scratch_not_deleted folder={} error=\"{}\"", root, e.getMessage());
    }
  }

  private String suffix() {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      s.append(POD_NAME_CHARS.charAt(random.nextInt(POD_NAME_CHARS.length())));
    }
    return s.toString();
  }

  private static ReconcileQueue.Key key(HasMetadata object) {
    return new ReconcileQueue.Key("job", object.getMetadata().getNamespace(), object.getMetadata().getName());
  }

  private static <T> ResourceEventHandler<T> handler(Consumer<T> changed, Consumer<T> deleted) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T object) {
        changed.accept(object);
      }

      @Override
      public void onUpdate(T before, T after) {
        changed.accept(after);
      }

      @Override
      public void onDelete(T object, boolean finalStateUnknown) {
        deleted.accept(object);
      }
    };
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }
}
