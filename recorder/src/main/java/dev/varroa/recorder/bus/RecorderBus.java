package dev.varroa.recorder.bus;

import dev.varroa.protocol.bus.BusTrust;
import dev.varroa.protocol.bus.CredentialReadingServerPool;
import dev.varroa.protocol.bus.Redaction;
import dev.varroa.recorder.RecorderSettings;
import io.nats.client.Connection;
import io.nats.client.ConnectionListener;
import io.nats.client.ErrorListener;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The recorder's NATS connection. jnats reconnects by itself, reading the password file on every attempt; when
 * it gives up (it closes after the same auth error twice) a new connection is opened in the background and handed
 * to the listeners, which subscribe again on it.
 */
public final class RecorderBus implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(RecorderBus.class);

  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  static final Duration RECONNECT_WAIT = Duration.ofSeconds(2);
  static final Duration REPLACEMENT_BACKOFF_CAP = Duration.ofSeconds(30);
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

  private final List<String> urls;
  private final NatsPasswordFile credentials;
  private final SSLContext tls;
  private final List<Consumer<Connection>> listeners = new CopyOnWriteArrayList<>();
  private final CountDownLatch closing = new CountDownLatch(1);
  private final Thread replacer;
  private volatile Connection current;

  private RecorderBus(List<String> urls, NatsPasswordFile credentials, SSLContext tls) {
    this.urls = urls;
    this.credentials = credentials;
    this.tls = tls;
    this.replacer = new Thread(this::replaceWhenClosed, "varroa-recorder-bus");
    this.replacer.setDaemon(true);
  }

  /** Connects once (fails if NATS is unreachable now); later outages are healed in the background. */
  public static RecorderBus open(RecorderSettings settings) throws IOException, InterruptedException {
    List<String> urls = Arrays.stream(settings.natsUrl().split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    SSLContext tls = settings.natsCaFile() == null ? null : BusTrust.trusting(
        Files.readString(settings.natsCaFile(), StandardCharsets.US_ASCII), "VARROA_NATS_CA_FILE " + settings.natsCaFile());
    RecorderBus bus = new RecorderBus(urls, new NatsPasswordFile(settings.natsUser(), settings.natsPasswordFile()), tls);
    try {
      bus.current = Nats.connect(bus.options());
    } catch (IOException e) {
      throw new IOException("cannot connect to NATS at " + urls + " (VARROA_NATS_URL): " + Redaction.describe(e));
    }
    bus.replacer.start();
    LOG.info("event=nats_connected servers={}", urls);
    return bus;
  }

  /** Hands the listener the current connection now and every replacement later. */
  public void onConnection(Consumer<Connection> listener) {
    listeners.add(listener);
    listener.accept(current);
  }

  public Connection connection() {
    return current;
  }

  public boolean isConnected() {
    Connection connection = current;
    return connection != null && connection.getStatus() == Connection.Status.CONNECTED;
  }

  private Options options() {
    Options.Builder builder = Options.builder();
    if (tls != null) {
      builder.sslContext(tls);
    }
    return builder
        .servers(urls.toArray(String[]::new))
        .serverPool(new CredentialReadingServerPool(urls, credentials))
        .connectionName("varroa-recorder")
        .connectionTimeout(CONNECT_TIMEOUT)
        .maxReconnects(-1)
        .reconnectWait(RECONNECT_WAIT)
        .connectionListener(this::connectionEvent)
        .errorListener(new LoggingErrorListener())
        .build();
  }

  private void connectionEvent(Connection connection, ConnectionListener.Events event) {
    switch (event) {
      case DISCONNECTED -> LOG.warn("event=nats_disconnected");
      case RESUBSCRIBED -> LOG.info("event=nats_reconnected");
      case CLOSED -> {
        if (closing.getCount() > 0) {
          LOG.warn("event=nats_connection_closed action=replace");
        }
      }
      default -> {
      }
    }
  }

  // Waits for jnats to give up on the current connection, then opens another with growing backoff.
  private void replaceWhenClosed() {
    try {
      while (!closing.await(RECONNECT_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        if (current.getStatus() != Connection.Status.CLOSED) {
          continue;
        }
        Duration backoff = RECONNECT_WAIT;
        while (closing.getCount() > 0) {
          try {
            Connection replacement = Nats.connect(options());
            current = replacement;
            LOG.info("event=nats_connection_replaced");
            listeners.forEach(listener -> listener.accept(replacement));
            break;
          } catch (IOException e) {
            LOG.warn("event=nats_connect_failed retryIn={} error=\"{}\"", backoff, Redaction.describe(e));
          }
          if (closing.await(backoff.toMillis(), TimeUnit.MILLISECONDS)) {
            return;
          }
          backoff = backoff.multipliedBy(2).compareTo(REPLACEMENT_BACKOFF_CAP) > 0 ? REPLACEMENT_BACKOFF_CAP
              : backoff.multipliedBy(2);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() throws InterruptedException {
    closing.countDown();
    replacer.interrupt();
    Connection connection = current;
    if (connection != null) {
      try {
        connection.flush(CLOSE_WAIT);
      } catch (Exception e) {
        LOG.debug("event=nats_flush_on_close_failed error=\"{}\"", Redaction.describe(e));
      }
      connection.close();
    }
    replacer.join(CLOSE_WAIT.toMillis());
  }

  private static final class LoggingErrorListener implements ErrorListener {

    @Override
    public void errorOccurred(Connection connection, String error) {
      LOG.warn("event=nats_error error=\"{}\"", Redaction.withoutUserInfo(error));
    }

    @Override
    public void exceptionOccurred(Connection connection, Exception exception) {
      LOG.warn("event=nats_exception error=\"{}\"", Redaction.describe(exception));
    }
  }
}
