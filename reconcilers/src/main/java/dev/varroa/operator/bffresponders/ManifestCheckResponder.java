package dev.varroa.operator.bffresponders;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.varroa.operator.manifests.ChangeClassification;
import dev.varroa.operator.manifests.ManifestCheck;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.ManifestCheckAnswer;
import dev.varroa.protocol.bus.v1.ManifestCheckRequest;
import dev.varroa.protocol.bus.v1.ManifestFieldChange;
import dev.varroa.protocol.bus.v1.ManifestProblem;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers varroa.clusters.&lt;cluster&gt;.manifest-check in the operator replicas' queue group: a Controller manifest
 * checked with the CRD schema and the settings resolver, with what it would inherit in this cluster (its
 * ControllerClasses and ProvisioningDefaults, from the reconciler's caches). Nothing is applied.
 */
public final class ManifestCheckResponder implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ManifestCheckResponder.class);
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Connection nats;
  private final String cluster;
  private final ManifestCheck check;
  private final Supplier<Optional<ManifestCheck.Inherited>> inherited;
  private Dispatcher dispatcher;

  /** @param inherited this cluster's classes and defaults now; empty before the caches exist */
  public ManifestCheckResponder(Connection nats, String cluster, ManifestCheck check,
      Supplier<Optional<ManifestCheck.Inherited>> inherited) {
    this.nats = nats;
    this.cluster = cluster;
    this.check = check;
    this.inherited = inherited;
  }

  public synchronized void start() {
    dispatcher = nats.createDispatcher(this::answer);
    dispatcher.subscribe(BusNames.clusterManifestCheck(cluster), BusNames.OPERATOR_QUEUE_GROUP);
  }

  private void answer(Message request) {
    if (request.getReplyTo() == null) {
      return;
    }
    try {
      ManifestCheckRequest asked = ManifestCheckRequest.parseFrom(request.getData());
      nats.publish(request.getReplyTo(), answer(asked).toByteArray());
    } catch (Exception e) {
      LOG.warn("event=manifest_check_failed cluster={} error=\"{}\"", cluster, e.getMessage());
    }
  }

  ManifestCheckAnswer answer(ManifestCheckRequest asked) {
    ManifestCheckAnswer.Builder answer = ManifestCheckAnswer.newBuilder().setCluster(cluster);
    Optional<JsonNode> current = Optional.empty();
    if (!asked.getCurrentSpecYaml().isBlank()) {
      try {
        current = Optional.ofNullable(YAML.readTree(asked.getCurrentSpecYaml()));
      } catch (JsonProcessingException e) {
        return answer.setValid(false).addProblems(problem("current", "the spec in force does not parse: "
            + e.getOriginalMessage(), "send the spec from the controller's detail unchanged",
            ManifestProblem.Severity.ERROR)).build();
      }
    }
    ManifestCheck.Outcome outcome = check.check(asked.getManifestYaml(), current, inherited.get());
    LOG.debug("event=manifest_checked cluster={} caller={} valid={}", cluster, asked.getCaller(), outcome.valid());
    answer.setValid(outcome.valid());
    add(answer, outcome.problems(), ManifestProblem.Severity.ERROR);
    add(answer, outcome.warnings(), ManifestProblem.Severity.WARNING);
    if (outcome.manifest() != null) {
      try {
        answer.setManifestJson(JSON.writeValueAsString(outcome.manifest()));
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("a parsed manifest always writes as JSON", e);
      }
    }
    ChangeClassification.Result change = outcome.change();
    if (change != null) {
      answer.setClassified(true).setChangeClass(change.changeClass()).setRestart(change.restart());
      change.changes().forEach(c -> answer.addChanges(ManifestFieldChange.newBuilder().setField(c.field())
          .setChangeClass(c.changeClass().name()).setEffect(c.effect())));
    }
    return answer.build();
  }

  private static void add(ManifestCheckAnswer.Builder answer, List<dev.varroa.operator.manifests.ManifestProblem> all,
      ManifestProblem.Severity severity) {
    all.forEach(p -> answer.addProblems(problem(p.field(), p.message(), p.fix(), severity)));
  }

  private static ManifestProblem problem(String field, String message, String fix, ManifestProblem.Severity severity) {
    return ManifestProblem.newBuilder().setField(field).setMessage(message).setFix(fix).setSeverity(severity).build();
  }

  @Override
  public synchronized void close() {
    if (dispatcher != null) {
      nats.closeDispatcher(dispatcher);
      dispatcher = null;
    }
  }
}
