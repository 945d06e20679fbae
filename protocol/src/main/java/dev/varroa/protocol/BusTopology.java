package dev.varroa.protocol;

import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.KeyValueManagement;
import io.nats.client.api.AckPolicy;
import io.nats.client.api.ConsumerConfiguration;
import io.nats.client.api.DeliverPolicy;
import io.nats.client.api.DiscardPolicy;
import io.nats.client.api.KeyValueConfiguration;
import io.nats.client.api.RetentionPolicy;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * The JetStream buckets and streams of the control channel. Operator and gateways both call
 * {@link #ensure(Connection)} at start, so whichever starts first creates them with the same settings.
 */
public final class BusTopology {

  /** Token records outlive the 15-minute token so a late reuse still finds the record marked used. */
  public static final Duration BOOTSTRAP_TOKEN_RECORD_AGE = Duration.ofHours(1);
  /** A gateway refreshes its presence well within this; an entry older than it means the gateway is gone. */
  public static final Duration GATEWAY_PRESENCE_AGE = Duration.ofSeconds(30);
  /** One-shot commands nobody picked up are dropped after this. */
  public static final Duration QUEUED_COMMAND_AGE = Duration.ofHours(24);
  /** Publishing the same command id twice within this window queues it once. */
  public static final Duration QUEUED_COMMAND_DEDUPE_WINDOW = Duration.ofMinutes(2);

  /** Build events wait this long at most for the recorder (seed 001: JetStream is transport, PostgreSQL the record). */
  public static final Duration BUILD_EVENT_AGE = Duration.ofDays(7);
  /** The stream refuses new groups beyond this; the gateway then waits VARROA_EVENT_PUBLISH_WAIT for room. */
  public static final long BUILD_EVENT_STREAM_BYTES = 1L << 30;
  /** Publishing the same group id twice within this window stores it once. */
  public static final Duration BUILD_EVENT_DEDUPE_WINDOW = Duration.ofMinutes(2);
  /** A group the recorder took but did not acknowledge within this is delivered again. */
  public static final Duration RECORDER_ACK_WAIT = Duration.ofSeconds(30);

  /** Activity republished within this window is stored once (the event id is its Nats-Msg-Id). */
  public static final Duration ACTIVITY_DEDUPE_WINDOW = Duration.ofMinutes(2);
  /** The activity buffer never holds more than this; the oldest events go first. */
  public static final long ACTIVITY_STREAM_BYTES = 1L << 30;
  /** An activity batch the recorder took but did not acknowledge within this is delivered again. */
  public static final Duration ACTIVITY_ACK_WAIT = Duration.ofSeconds(30);

  /** A cluster whose operator stopped refreshing its presence is forgotten after this (refreshed every 10 s). */
  public static final Duration CLUSTER_PRESENCE_AGE = Duration.ofSeconds(30);

  private BusTopology() {
  }

  /** The cluster registry (varroa_clusters): made sure of by each cluster's operator, read by the BFF. */
  public static void ensureClusters(Connection nats) throws IOException, JetStreamApiException {
    KeyValueManagement kvm = nats.keyValueManagement();
    createBucket(kvm, kvm.getBucketNames(), KeyValueConfiguration.builder()
        .name(BusNames.CLUSTERS_BUCKET).maxHistoryPerKey(1).ttl(CLUSTER_PRESENCE_AGE)
        .storageType(StorageType.Memory).build());
  }

  /** The access policy bucket: one key, kept on file so the BFF reads the last policy after a restart of NATS. */
  public static void ensureAccess(Connection nats) throws IOException, JetStreamApiException {
    KeyValueManagement kvm = nats.keyValueManagement();
    createBucket(kvm, kvm.getBucketNames(), KeyValueConfiguration.builder()
        .name(BusNames.ACCESS_BUCKET).maxHistoryPerKey(1).storageType(StorageType.File).build());
  }

  public static void ensure(Connection nats) throws IOException, JetStreamApiException {
    KeyValueManagement kvm = nats.keyValueManagement();
    List<String> buckets = kvm.getBucketNames();
    createBucket(kvm, buckets, KeyValueConfiguration.builder()
        .name(BusNames.BOOTSTRAP_TOKENS_BUCKET).maxHistoryPerKey(1).ttl(BOOTSTRAP_TOKEN_RECORD_AGE)
        .storageType(StorageType.File).build());
    createBucket(kvm, buckets, KeyValueConfiguration.builder()
        .name(BusNames.MITE_ROUTES_BUCKET).maxHistoryPerKey(1).storageType(StorageType.File).build());
    createBucket(kvm, buckets, KeyValueConfiguration.builder()
        .name(BusNames.GATEWAYS_BUCKET).maxHistoryPerKey(1).ttl(GATEWAY_PRESENCE_AGE)
        .storageType(StorageType.Memory).build());
    createBucket(kvm, buckets, KeyValueConfiguration.builder()
        .name(BusNames.LIVE_CONTROLLERS_BUCKET).maxHistoryPerKey(1).storageType(StorageType.File).build());
    JetStreamManagement jsm = nats.jetStreamManagement();
    if (!jsm.getStreamNames().contains(BusNames.COMMANDS_STREAM)) {
      try {
        jsm.addStream(StreamConfiguration.builder()
            .name(BusNames.COMMANDS_STREAM)
            .subjects(BusNames.queuedCommandsFilter())
            .retentionPolicy(RetentionPolicy.WorkQueue)
            .maxAge(QUEUED_COMMAND_AGE)
            .duplicateWindow(QUEUED_COMMAND_DEDUPE_WINDOW)
            .storageType(StorageType.File)
            .build());
      } catch (JetStreamApiException raced) {
        requireExists(raced, jsm.getStreamNames().contains(BusNames.COMMANDS_STREAM));
      }
    }
    ensureBuildsStream(jsm);
  }

  // Interest retention frees room as the recorder acknowledges; the durable consumer is created here, with the
  // stream, so a group published before any recorder ever ran is kept for it rather than dropped for lack of interest.
  private static void ensureBuildsStream(JetStreamManagement jsm) throws IOException, JetStreamApiException {
    if (!jsm.getStreamNames().contains(BusNames.BUILDS_STREAM)) {
      try {
        jsm.addStream(StreamConfiguration.builder()
            .name(BusNames.BUILDS_STREAM)
            .subjects(BusNames.buildsFilter())
            .retentionPolicy(RetentionPolicy.Interest)
            .discardPolicy(DiscardPolicy.New)
            .maxBytes(BUILD_EVENT_STREAM_BYTES)
            .maxAge(BUILD_EVENT_AGE)
            .duplicateWindow(BUILD_EVENT_DEDUPE_WINDOW)
            .storageType(StorageType.File)
            .build());
      } catch (JetStreamApiException raced) {
        requireExists(raced, jsm.getStreamNames().contains(BusNames.BUILDS_STREAM));
      }
    }
    if (!jsm.getConsumerNames(BusNames.BUILDS_STREAM).contains(BusNames.RECORDER_CONSUMER)) {
      try {
        jsm.addOrUpdateConsumer(BusNames.BUILDS_STREAM, ConsumerConfiguration.builder()
            .durable(BusNames.RECORDER_CONSUMER)
            .ackPolicy(AckPolicy.Explicit)
            .deliverPolicy(DeliverPolicy.All)
            .ackWait(RECORDER_ACK_WAIT)
            .build());
      } catch (JetStreamApiException raced) {
        requireExists(raced, jsm.getConsumerNames(BusNames.BUILDS_STREAM).contains(BusNames.RECORDER_CONSUMER));
      }
    }
  }

  /**
   * The recorder's activity buffer (seed 001): stream {@code varroa_activity} over {@code activity.>} keeping every
   * event for {@link BusNames#ACTIVITY_BUFFER} whether or not it was drained (Limits retention, the oldest dropped
   * first), and the durable consumer {@code varroa-recorder-activity}. Only the recorder calls this: without a
   * recorder nobody keeps activity, and live readers subscribe the subjects themselves.
   */
  public static void ensureActivity(Connection nats) throws IOException, JetStreamApiException {
    JetStreamManagement jsm = nats.jetStreamManagement();
    if (!jsm.getStreamNames().contains(BusNames.ACTIVITY_STREAM)) {
      try {
        jsm.addStream(StreamConfiguration.builder()
            .name(BusNames.ACTIVITY_STREAM)
            .subjects(BusNames.activityFilter())
            .retentionPolicy(RetentionPolicy.Limits)
            .discardPolicy(DiscardPolicy.Old)
            .maxAge(BusNames.ACTIVITY_BUFFER)
            .maxBytes(ACTIVITY_STREAM_BYTES)
            .duplicateWindow(ACTIVITY_DEDUPE_WINDOW)
            .storageType(StorageType.File)
            .build());
      } catch (JetStreamApiException raced) {
        requireExists(raced, jsm.getStreamNames().contains(BusNames.ACTIVITY_STREAM));
      }
    }
    if (!jsm.getConsumerNames(BusNames.ACTIVITY_STREAM).contains(BusNames.ACTIVITY_CONSUMER)) {
      try {
        jsm.addOrUpdateConsumer(BusNames.ACTIVITY_STREAM, ConsumerConfiguration.builder()
            .durable(BusNames.ACTIVITY_CONSUMER)
            .ackPolicy(AckPolicy.Explicit)
            .deliverPolicy(DeliverPolicy.All)
            .ackWait(ACTIVITY_ACK_WAIT)
            .build());
      } catch (JetStreamApiException raced) {
        requireExists(raced, jsm.getConsumerNames(BusNames.ACTIVITY_STREAM).contains(BusNames.ACTIVITY_CONSUMER));
      }
    }
  }

  private static void createBucket(KeyValueManagement kvm, List<String> existing, KeyValueConfiguration config)
      throws IOException, JetStreamApiException {
    if (existing.contains(config.getBucketName())) {
      return;
    }
    try {
      kvm.create(config);
    } catch (JetStreamApiException raced) {
      requireExists(raced, kvm.getBucketNames().contains(config.getBucketName()));
    }
  }

  // Another replica may create the same object between our check and our create.
  private static void requireExists(JetStreamApiException e, boolean exists) throws JetStreamApiException {
    if (!exists) {
      throw e;
    }
  }
}
