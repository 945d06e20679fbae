package dev.varroa.protocol.bus;

import io.nats.client.Connection;
import io.nats.client.ConnectionListener;
import io.nats.client.ErrorListener;
import io.nats.client.JetStream;
import io.nats.client.JetStreamManagement;
import io.nats.client.KeyValue;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A component's NATS connection (the gateway's, the recorder's). jnats reconnects by itself (and
 * reads the credential files on each attempt, see {@link CredentialReadingServerPool}); when jnats
 * gives up (it closes after the same auth error twice in a row, e.g. while a password rotation is
 * half done) this opens a new connection and tells the listeners, so subscriptions are made again on it.
 */
public final class BusConnection implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(BusConnection.class);

  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  /** How long a start waits for NATS: a first install starts NATS beside the components that need it. */
  static final Duration START_WAIT = Duration.ofSeconds(90);
  private static final Duration START_RETRY_MAX = Duration.ofSeconds(5);
  static final Duration RECONNECT_WAIT = Duration.ofSeconds(2);
  static final Duration REPLACEMENT_BACKOFF_CAP = Duration.ofSeconds(30);
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

  private final String client;
  private final List<String> urls;
  private final BusCredentialFiles credentials;
  private final SSLContext tls;
  private final String inboxPrefix;
  private final List<BusListener> listeners = new CopyOnWriteArrayList<>();
  private final Map<String, BucketHandle> keyValues = new ConcurrentHashMap<>();
  private final ExecutorService replacer;
  private final CountDownLatch closing = new CountDownLatch(1);
  private volatile Connection current;

  private BusConnection(String client, List<String> urls, BusCredentialFiles credentials, SSLContext tls,
      String inboxPrefix) {
    this.client = client;
    this.inboxPrefix = inboxPrefix;
    this.tls = tls;
    this.urls = urls;
    this.credentials = credentials;
    this.replacer = Executors.newSingleThreadExecutor(runnable -> {
      Thread thread = new Thread(runnable, "varroa-bus-replacer-" + client);
      thread.setDaemon(true);
      return thread;
    });
  }

  /**
   * Connects, retrying for up to {@link #START_WAIT} while NATS does not answer yet (then fails naming the servers);
   * later outages are healed in the background.
   *
   * @param client names the connection to the server ({@code varroa-<client>}) and in the log, e.g. {@code gateway-gw-1}
   */
  public static BusConnection open(String client, String commaSeparatedUrls, BusCredentialFiles credentials)
      throws IOException, InterruptedException {
    return open(client, commaSeparatedUrls, credentials, null);
  }

  /** @param tls the context tls:// servers are verified with; null for the JVM's default trust */
  public static BusConnection open(String client, String commaSeparatedUrls, BusCredentialFiles credentials,
      SSLContext tls) throws IOException, InterruptedException {
    return open(client, commaSeparatedUrls, credentials, tls, null);
  }

  /**
   * @param inboxPrefix the prefix of this connection's reply subjects ({@code BusNames.gatewayInboxPrefix}), so
   *     that only its own NATS user may subscribe to them; null for jnats' shared _INBOX.
   */
  public static BusConnection open(String client, String commaSeparatedUrls, BusCredentialFiles credentials,
      SSLContext tls, String inboxPrefix) throws IOException, InterruptedException {
    List<String> urls = Arrays.stream(commaSeparatedUrls.split(",")).map(String::strip).filter(s -> !s.isEmpty())
        .toList();
    BusConnection bus = new BusConnection(client, urls, credentials, tls, inboxPrefix);
    long deadline = System.nanoTime() + START_WAIT.toNanos();
    Duration retry = Duration.ofMillis(500);
    while (bus.current == null) {
      try {
        bus.current = Nats.connect(bus.options());
      } catch (IOException e) {
        if (System.nanoTime() + retry.toNanos() > deadline) {
          bus.replacer.shutdownNow();
          throw new IOException("cannot connect to NATS at " + urls + " within " + START_WAIT.toSeconds() + " s: "
              + Redaction.describe(e));
        }
        LOG.warn("event=nats_not_answering client={} servers={} retry_in_ms={} error=\"{}\"", client, urls,
            retry.toMillis(), Redaction.describe(e));
        Thread.sleep(retry.toMillis());
        retry = retry.multipliedBy(2).compareTo(START_RETRY_MAX) > 0 ? START_RETRY_MAX : retry.multipliedBy(2);
      }
    }
    LOG.info("event=nats_connected client={} servers={}", client, urls);
    return bus;
  }

  /** Registers a listener and, if connected already, hands it the current connection at once. */
  public void addListener(BusListener listener) {
    listeners.add(listener);
    Connection connection = current;
    if (connection != null) {
      listener.connected(connection);
    }
  }

  public Connection connection() {
    return current;
  }

  public boolean isConnected() {
    Connection connection = current;
    return connection != null && connection.getStatus() == Connection.Status.CONNECTED;
  }

  /** The bucket on the current connection; cached until the connection is replaced. */
  public KeyValue keyValue(String bucket) throws IOException {
    Connection connection = current;
    BucketHandle cached = keyValues.get(bucket);
    if (cached != null && cached.connection() == connection) {
      return cached.keyValue();
    }
    KeyValue created = connection.keyValue(bucket);
    keyValues.put(bucket, new BucketHandle(connection, created));
    return created;
  }

  // A KeyValue is bound to the connection that made it.
  private record BucketHandle(Connection connection, KeyValue keyValue) {
  }

  public JetStream jetStream() throws IOException {
    return current.jetStream();
  }

  public JetStreamManagement jetStreamManagement() throws IOException {
    return current.jetStreamManagement();
  }

  private Options options() {
    Options.Builder builder = Options.builder();
    if (tls != null) {
      builder.sslContext(tls);
    }
    if (inboxPrefix != null) {
      builder.inboxPrefix(inboxPrefix);
    }
    return builder
        // jnats insists on a server list in the options; the pool adds the credential per attempt.
        .servers(urls.toArray(String[]::new))
        .serverPool(new CredentialReadingServerPool(urls, credentials))
        .connectionName("varroa-" + client)
        .connectionTimeout(CONNECT_TIMEOUT)
        .maxReconnects(-1)
        .reconnectWait(RECONNECT_WAIT)
        .connectionListener(this::connectionEvent)
        .errorListener(new LoggingErrorListener())
        .build();
  }

  private void connectionEvent(Connection connection, ConnectionListener.Events event) {
    if (connection != current) {
      return;
    }
    switch (event) {
      case DISCONNECTED -> {
        LOG.warn("event=nats_disconnected client={}", client);
        listeners.forEach(BusListener::disconnected);
      }
      case RESUBSCRIBED -> {
        LOG.info("event=nats_reconnected client={}", client);
        listeners.forEach(BusListener::reconnected);
      }
      case CLOSED -> {
        if (closing.getCount() > 0) {
          LOG.warn("event=nats_connection_closed client={} action=replace", client);
          listeners.forEach(BusListener::disconnected);
          replacer.execute(this::replace);
        }
      }
      default -> {
      }
    }
  }

  // Runs on the replacer thread until a new connection is up or the connection is closed.
  private void replace() {
    Duration backoff = RECONNECT_WAIT;
    while (closing.getCount() > 0) {
      try {
        Connection replacement = Nats.connect(options());
        current = replacement;
        LOG.info("event=nats_connection_replaced client={}", client);
        listeners.forEach(listener -> listener.connected(replacement));
        return;
      } catch (IOException e) {
        LOG.warn("event=nats_connect_failed client={} retryIn={} error=\"{}\"", client, backoff,
            Redaction.describe(e));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      try {
        if (closing.await(backoff.toMillis(), TimeUnit.MILLISECONDS)) {
          return;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      backoff = backoff.multipliedBy(2).compareTo(REPLACEMENT_BACKOFF_CAP) > 0 ? REPLACEMENT_BACKOFF_CAP
          : backoff.multipliedBy(2);
    }
  }

  /** Closes the connection (after flushing what was published); no replacement follows. */
  @Override
  public void close() throws InterruptedException {
    closing.countDown();
    replacer.shutdownNow();
    Connection connection = current;
    if (connection != null) {
      try {
        connection.flush(CLOSE_WAIT);
      } catch (Exception e) {
        LOG.debug("event=nats_flush_on_close_failed client={} error=\"{}\"", client, Redaction.describe(e));
      }
      connection.close();
    }
    replacer.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Drops the connection without flushing, as a killed process would. */
  public void abort() throws InterruptedException {
    closing.countDown();
    replacer.shutdownNow();
    Connection connection = current;
    if (connection != null) {
      connection.close();
    }
  }

  private final class LoggingErrorListener implements ErrorListener {

    @Override
    public void errorOccurred(Connection connection, String error) {
      String safe = Redaction.withoutUserInfo(error);
      LOG.warn("event=nats_error client={} error=\"{}\"", client, safe);
      if (connection == current && safe != null && safe.toLowerCase().contains("permissions violation")) {
        listeners.forEach(listener -> listener.permissionDenied(safe));
      }
    }

    @Override
    public void exceptionOccurred(Connection connection, Exception exception) {
      LOG.warn("event=nats_exception client={} error=\"{}\"", client, Redaction.describe(exception));
    }

    @Override
    public void slowConsumerDetected(Connection connection, io.nats.client.Consumer consumer) {
      LOG.warn("event=nats_slow_consumer client={}", client);
    }
  }
}
