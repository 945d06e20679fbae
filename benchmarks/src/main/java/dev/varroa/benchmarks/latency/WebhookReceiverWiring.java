package dev.varroa.benchmarks.latency;

import dev.varroa.operator.VarroaOperator;
import java.net.URI;
import java.util.Optional;

/**
 * The one place where the harness starts the operator's webhook receiver. The receiver
 * ({@code VarroaOperator#serveWebhooks(int port, secret)}) is being written on another branch; until it
 * is merged this starts nothing and the webhook mode is skipped with the reason.
 */
public final class WebhookReceiverWiring {

  private WebhookReceiverWiring() {
  }

  /** Starts the receiver on a free port with {@code secret}; returns where to post pushes, or empty when there is none. */
  public static Optional<URI> serve(VarroaOperator operator, String secret) {
    // TO FINISH AFTER THE MERGE: replace the return below with these two lines (adapt the secret's type if
    // serveWebhooks takes bytes: secret.getBytes(StandardCharsets.UTF_8)); VarroaOperator#close stops it.
    //   int port = operator.serveWebhooks(0, secret);
    //   return Optional.of(URI.create("http://127.0.0.1:" + port + WebhookTrigger.PATH));
    return Optional.empty();
  }
}
