package dev.varroa.dashboard.manifests;

import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.ManifestCheckAnswer;
import dev.varroa.protocol.bus.v1.ManifestCheckRequest;
import io.nats.client.Connection;
import io.nats.client.Message;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Asks the target cluster's operator to check a Controller manifest (varroa.clusters.&lt;cluster&gt;.manifest-check):
 * the operator holds the CRD schema, the settings resolver and the cluster's ControllerClasses and
 * ProvisioningDefaults, so the BFF only forwards and reads the answer.
 */
public final class OperatorManifestCheck {

  /** "check unavailable", in the words of seed 002's "list unavailable". */
  public static final String CHECK_UNAVAILABLE = "check unavailable";
  /** How long the cluster's operator has to answer; a check is one schema walk and one resolve. */
  public static final Duration ANSWER_WAIT = Duration.ofSeconds(5);

  /** The cluster's operator did not answer, or answered what the BFF cannot read; the message names the cluster. */
  public static final class Unavailable extends Exception {
    Unavailable(String message) {
      super(message);
    }
  }

  private final Supplier<Connection> nats;
  private final String coreCluster;
  private final Duration wait;

  public OperatorManifestCheck(Supplier<Connection> nats, String coreCluster) {
    this(nats, coreCluster, ANSWER_WAIT);
  }

  public OperatorManifestCheck(Supplier<Connection> nats, String coreCluster, Duration wait) {
    this.nats = nats;
    this.coreCluster = coreCluster;
    this.wait = wait;
  }

  /** The cluster a check goes to when the caller names none: the core (seed 002's picker default). */
  public String coreCluster() {
    return coreCluster;
  }

  /** @param currentSpec the spec in force as JSON or YAML text; empty: no change classification */
  public ManifestCheckAnswer check(String cluster, String manifest, String currentSpec, String caller)
      throws Unavailable, InterruptedException {
    byte[] request = ManifestCheckRequest.newBuilder().setManifestYaml(manifest).setCurrentSpecYaml(currentSpec)
        .setCaller(caller).build().toByteArray();
    CompletableFuture<Message> reply = nats.get().requestWithTimeout(BusNames.clusterManifestCheck(cluster), request,
        wait);
    try {
      return ManifestCheckAnswer.parseFrom(reply.get(wait.toMillis() + 100, TimeUnit.MILLISECONDS).getData());
    } catch (TimeoutException | ExecutionException | CancellationException e) {
      throw new Unavailable(CHECK_UNAVAILABLE + ": cluster " + cluster + " did not answer within " + wait.toMillis()
          + " ms; check that it is registered (varroactl get clusters) and its operator's pods and NATS connection");
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new Unavailable(CHECK_UNAVAILABLE + ": cluster " + cluster + " sent an answer the BFF cannot read ("
          + e.getMessage() + "); run the same Varroa version on the BFF and that operator");
    }
  }
}
