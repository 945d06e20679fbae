package dev.varroa.operator.install;

import dev.varroa.operator.channel.JenkinsTokenIssuer;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the installation's Secrets at the operator's start when they are missing, so an install needs
 * no manual step; an existing Secret is never overwritten (a user may bring their own CA). Several replicas
 * may start at once: a create that loses the race reads the winner's Secret. What the operator made belongs to the
 * {@link InstallationOwner}, so `helm uninstall` takes it away with the release (a user's own Secret stays).
 */
public final class InstallationSecrets {
  public static final String CA_SECRET = "varroa-ca";
  public static final String JWT_SECRET = "varroa-jwt-signing";
  public static final String NATS_CREDS_SECRET = "varroa-nats-creds";
  public static final String NATS_TLS_SECRET = "varroa-nats-tls";
  /** Prefix of the Secret holding one member's NATS identity, to copy into that member's {@code varroa-nats-creds}. */
  public static final String NATS_MEMBER_CREDS_PREFIX = "varroa-nats-creds-";
  public static final String NATS_STATEFULSET = "varroa-nats";
  /** Pod-template annotation that rolls NATS when its server certificate was reissued. */
  public static final String NATS_TLS_ANNOTATION = "varroa.dev/nats-tls-serial";
  public static final String KEY_CA_CERT = "ca.crt";
  public static final String KEY_CA_KEY = "ca.key";
  public static final String KEY_TLS_CERT = "tls.crt";
  public static final String KEY_TLS_KEY = "tls.key";
  public static final String KEY_JWT = "signing-key.pem";
  public static final String KEY_OPERATOR_PASSWORD = "operator-password";
  public static final String KEY_GATEWAY_PASSWORD = "gateway-password";
  public static final String KEY_BFF_PASSWORD = "bff-password";
  public static final String KEY_RECORDER_PASSWORD = "recorder-password";
  public static final String WEBHOOK_KEY = "token";
  static final String MANAGED_BY = "varroa-operator";

  private static final Logger LOG = LoggerFactory.getLogger(InstallationSecrets.class);

  private final KubernetesClient client;
  private final InstallationSettings settings;
  private final Clock clock;
  private final InstallationOwner installationOwner;

  /** The CA certificate the mites trust and the key Jenkins tokens are signed with. */
  public record Material(String caCertificatePem, JenkinsTokenIssuer jenkinsTokens) {}

  public InstallationSecrets(KubernetesClient client, InstallationSettings settings, Clock clock) {
    this.client = client;
    this.settings = settings;
    this.clock = clock;
    this.installationOwner = new InstallationOwner(client, settings.namespace());
  }

  /** Ensures every Secret of this mode exists (and the NATS certificate covers its names); returns the material. */
  public Material ensure() throws java.io.IOException {
    Instant now = clock.instant();
    // one read of the owner for every Secret below (this runs at the operator's start)
    Optional<OwnerReference> owner = installationOwner.reference();
    Secret ca = ensure(CA_SECRET, owner, () -> {
      InstallationKeys.Pair pair = InstallationKeys.newCa("Varroa CA " + settings.clusterName(), now);
      return Map.of(KEY_CA_CERT, pair.certificatePem(), KEY_CA_KEY, pair.privateKeyPem());
    });
    Secret jwt = ensure(JWT_SECRET, owner, () -> Map.of(KEY_JWT, JenkinsTokenIssuer.generate().privateKeyPem()));
    if (settings.mode() == InstallMode.FULL) {
      Secret natsTls = ensure(NATS_TLS_SECRET, owner, () -> natsTls(InstallationKeys.newCa("Varroa NATS CA", now), now));
      natsTls = renewNatsCertificate(natsTls, now);
      String natsCa = value(natsTls, KEY_CA_CERT);
      ensure(NATS_CREDS_SECRET, owner, () -> Map.of(KEY_OPERATOR_PASSWORD, InstallationKeys.secretToken(),
          KEY_GATEWAY_PASSWORD, InstallationKeys.secretToken(), KEY_BFF_PASSWORD, InstallationKeys.secretToken(),
          KEY_RECORDER_PASSWORD, InstallationKeys.secretToken(), KEY_CA_CERT, natsCa));
      // Exactly what a member's varroa-nats-creds holds (seed 002): its own two passwords and the CA, nothing else.
      for (String member : settings.natsMembers()) {
        ensure(memberCredsSecret(member), owner, () -> Map.of(KEY_OPERATOR_PASSWORD, InstallationKeys.secretToken(),
            KEY_GATEWAY_PASSWORD, InstallationKeys.secretToken(), KEY_CA_CERT, natsCa));
      }
    }
    settings.webhookSecret().ifPresent(name -> ensure(name, owner, () -> Map.of(WEBHOOK_KEY, InstallationKeys.secretToken())));
    return new Material(value(ca, KEY_CA_CERT),
        JenkinsTokenIssuer.fromPem(value(jwt, KEY_JWT), "Secret " + settings.namespace() + "/" + JWT_SECRET));
  }

  /** The Secret on the core with the NATS identity of {@code member} (the chart's varroa.natsMemberSecret). */
  public static String memberCredsSecret(String member) {
    return NATS_MEMBER_CREDS_PREFIX + member;
  }

  private Map<String, String> natsTls(InstallationKeys.Pair natsCa, Instant now) {
    InstallationKeys.Pair server = InstallationKeys.issueServer(natsCa, settings.natsServerDnsNames(),
        settings.natsServerIps(), now);
    return Map.of(KEY_CA_CERT, natsCa.certificatePem(), KEY_CA_KEY, natsCa.privateKeyPem(),
        KEY_TLS_CERT, server.certificatePem(), KEY_TLS_KEY, server.privateKeyPem());
  }

  // nats.external.host or ipSANs changed, or the certificate nears its end: reissue with the same CA, then roll NATS.
  private Secret renewNatsCertificate(Secret current, Instant now) {
    if (InstallationKeys.covers(value(current, KEY_TLS_CERT), settings.natsServerDnsNames(), settings.natsServerIps(),
        now)) {
      return current;
    }
    InstallationKeys.Pair ca = new InstallationKeys.Pair(value(current, KEY_CA_CERT), value(current, KEY_CA_KEY));
    InstallationKeys.Pair server = InstallationKeys.issueServer(ca, settings.natsServerDnsNames(),
        settings.natsServerIps(), now);
    // A merge patch that carries the resourceVersion read above: a replica renewing at the same moment gets a
    // 409 and keeps the other's certificate. Patch, not update: the chart grants no update on Secrets.
    Map<String, Object> patch = Map.of(
        "metadata", Map.of("resourceVersion", current.getMetadata().getResourceVersion()),
        "data", Map.of(KEY_TLS_CERT, encode(server.certificatePem()), KEY_TLS_KEY, encode(server.privateKeyPem())));
    Secret updated;
    try {
      updated = client.secrets().inNamespace(settings.namespace()).withName(NATS_TLS_SECRET)
          .patch(PatchContext.of(PatchType.JSON_MERGE), client.getKubernetesSerialization().asJson(patch));
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
      return client.secrets().inNamespace(settings.namespace()).withName(NATS_TLS_SECRET).get();
    }
    LOG.info("event=nats_certificate_reissued secret={} dns_names={} ips={}", NATS_TLS_SECRET,
        settings.natsServerDnsNames(), settings.natsServerIps());
    rollNats(updated.getMetadata().getResourceVersion());
    return updated;
  }

  // A merge patch straight away (no read: the chart grants patch on StatefulSets, not get); absent in a test is fine.
  private void rollNats(String serial) {
    String patch = client.getKubernetesSerialization().asJson(Map.of("spec", Map.of("template", Map.of("metadata",
        Map.of("annotations", Map.of(NATS_TLS_ANNOTATION, serial))))));
    try {
      client.apps().statefulSets().inNamespace(settings.namespace()).withName(NATS_STATEFULSET)
          .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
        throw e;
      }
    }
  }

  private Secret ensure(String name, Optional<OwnerReference> owner,
      java.util.function.Supplier<Map<String, String>> contents) {
    var secrets = client.secrets().inNamespace(settings.namespace());
    Secret existing = secrets.withName(name).get();
    if (existing != null) {
      return adopt(existing, owner);
    }
    Secret created = new SecretBuilder().withNewMetadata().withName(name).withNamespace(settings.namespace())
        .addToLabels("app.kubernetes.io/managed-by", MANAGED_BY).addToLabels("app.kubernetes.io/part-of", "varroa")
        .withOwnerReferences(owner.stream().toList())
        .endMetadata().withType("Opaque").withStringData(contents.get()).build();
    try {
      Secret result = secrets.resource(created).create();
      LOG.info("event=installation_secret_created secret={}/{}", settings.namespace(), name);
      return result;
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
      return secrets.withName(name).get();
    }
  }

  /** An installation Secret an older operator made without an owner gets one; anything else is left as it is. */
  private Secret adopt(Secret existing, Optional<OwnerReference> owner) {
    boolean ours = MANAGED_BY.equals(Optional.ofNullable(existing.getMetadata().getLabels())
        .map(l -> l.get("app.kubernetes.io/managed-by")).orElse(null));
    return ours ? installationOwner.adopt(client.secrets().inNamespace(settings.namespace())
        .withName(existing.getMetadata().getName()), existing, owner) : existing;
  }

  static String value(Secret secret, String key) {
    Optional<String> encoded = Optional.ofNullable(secret.getData()).map(d -> d.get(key));
    if (encoded.isEmpty()) {
      throw new IllegalStateException("Secret " + secret.getMetadata().getNamespace() + "/"
          + secret.getMetadata().getName() + " has no key " + key + "; fix: add it, or delete the Secret and restart "
          + "the operator to have it made anew");
    }
    return new String(Base64.getDecoder().decode(encoded.get()), StandardCharsets.UTF_8);
  }

  private static String encode(String value) {
    return Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
  }
}
