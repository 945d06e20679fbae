package dev.varroa.operator.hooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.Headers;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The Git hosts whose push webhooks Varroa reads: the header naming the event, the events that are
 * pushes, how a delivery proves it knows the shared secret, and where the payload names the repository
 * and the refs. Declared in the order they are recognised: Forgejo also sends Gitea's and GitHub's
 * headers, and Gitea GitHub's, so the most specific comes first.
 */
public enum GitProvider {
  FORGEJO("Forgejo", "X-Forgejo-Event", Set.of("push"), "X-Forgejo-Signature", "X-Forgejo-Delivery") {
    @Override
    boolean authentic(String credential, byte[] body, byte[] secret) {
      return DeliveryAuthentication.signatureMatches(secret, body, credential);
    }

    @Override
    GitPush parse(JsonNode root) throws MalformedPayloadException {
      return giteaShaped(this, root);
    }
  },
  GITEA("Gitea", "X-Gitea-Event", Set.of("push"), "X-Gitea-Signature", "X-Gitea-Delivery") {
    @Override
    boolean authentic(String credential, byte[] body, byte[] secret) {
      return DeliveryAuthentication.signatureMatches(secret, body, credential);
    }

    @Override
    GitPush parse(JsonNode root) throws MalformedPayloadException {
      return giteaShaped(this, root);
    }
  },
  GITLAB("GitLab", "X-Gitlab-Event", Set.of("Push Hook", "Tag Push Hook"), "X-Gitlab-Token",
      "X-Gitlab-Event-UUID") {
    @Override
    boolean authentic(String credential, byte[] body, byte[] secret) {
      return DeliveryAuthentication.tokenMatches(secret, credential);
    }

    @Override
    GitPush parse(JsonNode root) throws MalformedPayloadException {
      String ref = PayloadJson.requiredText(root, "ref", "the pushed ref, e.g. refs/heads/main");
      List<String> urls = PayloadJson.texts(root, "project.git_http_url", "project.git_ssh_url", "project.web_url",
          "repository.git_http_url", "repository.git_ssh_url", "repository.homepage");
      return new GitPush(this, requireUrls(urls, "project.git_http_url, project.git_ssh_url or project.web_url"),
          List.of(ref));
    }
  },
  BITBUCKET_SERVER("Bitbucket Server", "X-Event-Key", Set.of("repo:refs_changed"), "X-Hub-Signature",
      "X-Request-Id") {
    @Override
    boolean authentic(String credential, byte[] body, byte[] secret) {
      return DeliveryAuthentication.signatureMatches(secret, body, withoutPrefix(credential));
    }

    @Override
    GitPush parse(JsonNode root) throws MalformedPayloadException {
      JsonNode changes = root.path("changes");
      if (!changes.isArray()) {
        throw new MalformedPayloadException("field 'changes' is missing or not an array; expected the refs pushed");
      }
      List<String> refs = new ArrayList<>();
      for (JsonNode change : changes) {
        PayloadJson.text(change, "ref.id").or(() -> PayloadJson.text(change, "refId")).ifPresent(refs::add);
      }
      if (refs.isEmpty()) {
        throw new MalformedPayloadException("no entry of 'changes' has a 'ref.id' or 'refId'; expected e.g. refs/heads/main");
      }
      List<String> urls = new ArrayList<>();
      for (JsonNode link : root.path("repository").path("links").path("clone")) {
        PayloadJson.text(link, "href").ifPresent(urls::add);
      }
      return new GitPush(this, requireUrls(urls, "repository.links.clone[].href"), refs);
    }
  },
  GITHUB("GitHub", "X-GitHub-Event", Set.of("push"), "X-Hub-Signature-256", "X-GitHub-Delivery") {
    @Override
    boolean authentic(String credential, byte[] body, byte[] secret) {
      return DeliveryAuthentication.signatureMatches(secret, body, withoutPrefix(credential));
    }

    @Override
    GitPush parse(JsonNode root) throws MalformedPayloadException {
      String ref = PayloadJson.requiredText(root, "ref", "the pushed ref, e.g. refs/heads/main");
      List<String> urls = PayloadJson.texts(root, "repository.clone_url", "repository.ssh_url", "repository.git_url",
          "repository.html_url");
      return new GitPush(this, requireUrls(urls, "repository.clone_url, repository.ssh_url or repository.html_url"),
          List.of(ref));
    }
  };

  /** GitHub's and Bitbucket's signature headers carry the algorithm before the hex. */
  private static final String SHA256_PREFIX = "sha256=";

  private final String displayName;
  private final String eventHeader;
  private final Set<String> pushEvents;
  private final String credentialHeader;
  private final String deliveryHeader;

  GitProvider(String displayName, String eventHeader, Set<String> pushEvents, String credentialHeader,
      String deliveryHeader) {
    this.displayName = displayName;
    this.eventHeader = eventHeader;
    this.pushEvents = pushEvents;
    this.credentialHeader = credentialHeader;
    this.deliveryHeader = deliveryHeader;
  }

  /** The provider whose event header the delivery carries, most specific first. */
  public static Optional<GitProvider> of(Headers headers) {
    for (GitProvider provider : values()) {
      if (headers.getFirst(provider.eventHeader) != null) {
        return Optional.of(provider);
      }
    }
    return Optional.empty();
  }

  /** Every event header recognised, for the message that names what is missing. */
  public static String eventHeaders() {
    List<String> names = new ArrayList<>();
    for (GitProvider provider : values()) {
      names.add(provider.eventHeader);
    }
    return String.join(", ", names);
  }

  public String displayName() {
    return displayName;
  }

  public String eventHeader() {
    return eventHeader;
  }

  public String credentialHeader() {
    return credentialHeader;
  }

  /** The header carrying the delivery's unique id (unsigned: a replay is also recognised by its body). */
  public String deliveryHeader() {
    return deliveryHeader;
  }

  public boolean isPush(String event) {
    return event != null && pushEvents.contains(event.strip());
  }

  /** Whether the credential header's value proves the sender knows the secret. */
  abstract boolean authentic(String credential, byte[] body, byte[] secret);

  /** The repository URLs and refs of a push payload. */
  abstract GitPush parse(JsonNode root) throws MalformedPayloadException;

  private static GitPush giteaShaped(GitProvider provider, JsonNode root) throws MalformedPayloadException {
    String ref = PayloadJson.requiredText(root, "ref", "the pushed ref, e.g. refs/heads/main");
    List<String> urls = PayloadJson.texts(root, "repository.clone_url", "repository.ssh_url", "repository.html_url");
    return new GitPush(provider, requireUrls(urls, "repository.clone_url, repository.ssh_url or repository.html_url"),
        List.of(ref));
  }

  private static List<String> requireUrls(List<String> urls, String expected) throws MalformedPayloadException {
    if (urls.isEmpty()) {
      throw new MalformedPayloadException("the payload names no repository URL; expected " + expected);
    }
    return urls;
  }

  private static String withoutPrefix(String credential) {
    if (credential == null || !credential.strip().regionMatches(true, 0, SHA256_PREFIX, 0, SHA256_PREFIX.length())) {
      return null;
    }
    return credential.strip().substring(SHA256_PREFIX.length());
  }
}
