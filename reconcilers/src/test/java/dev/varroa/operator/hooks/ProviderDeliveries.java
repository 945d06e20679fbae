package dev.varroa.operator.hooks;

import com.sun.net.httpserver.Headers;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;

/**
 * Deliveries built the way each provider sends them: the headers it sets and the payload fields it
 * fills (trimmed to what a reader could care about, names and nesting as documented).
 */
final class ProviderDeliveries {
  static final String ZERO = "0000000000000000000000000000000000000000";
  static final String BEFORE = "28e1879d029cb852e4844d9c718537df08844e03";
  static final String AFTER = "bffeb74224043ba2feb48d137756c8a9331c449a";

  /** A delivery's headers and raw body. */
  record Delivery(Headers headers, byte[] body) {
    Delivery with(String header, String value) {
      Headers copy = new Headers();
      copy.putAll(headers);
      copy.set(header, value);
      return new Delivery(copy, body);
    }

    Delivery without(String header) {
      Headers copy = new Headers();
      copy.putAll(headers);
      copy.remove(header);
      return new Delivery(copy, body);
    }
  }

  private ProviderDeliveries() {}

  static String githubPushBody(String ref, String cloneUrl, String sshUrl, String htmlUrl) {
    return """
        {"ref":"%s","before":"%s","after":"%s","created":false,"deleted":false,"forced":false,"base_ref":null,
         "compare":"%s/compare/28e1879d029c...bffeb7422404",
         "commits":[{"id":"%s","tree_id":"%s","distinct":true,"message":"Raise the executor count",
           "timestamp":"2026-11-30T10:00:00+01:00","url":"%s/commit/%s",
           "author":{"name":"Mona","email":"mona@example.com","username":"mona"},
           "added":[],"removed":[],"modified":["jcasc/00.yaml"]}],
         "head_commit":{"id":"%s","message":"Raise the executor count"},
         "repository":{"id":1296269,"node_id":"MDEwOlJlcG9zaXRvcnkxMjk2MjY5","name":"bundles","full_name":"acme/bundles",
           "private":true,"owner":{"name":"acme","login":"acme"},"html_url":"%s",
           "url":"https://api.github.com/repos/acme/bundles","git_url":"%s",
           "ssh_url":"%s","clone_url":"%s","svn_url":"%s","default_branch":"main","master_branch":"main"},
         "pusher":{"name":"mona","email":"mona@example.com"},"sender":{"login":"mona","id":1}}
        """.formatted(ref, BEFORE, AFTER, htmlUrl, AFTER, AFTER, htmlUrl, AFTER, AFTER, htmlUrl,
        htmlUrl.replaceFirst("^https?://", "git://") + ".git", sshUrl, cloneUrl, htmlUrl);
  }

  static String githubPushBody(String ref) {
    return githubPushBody(ref, "https://github.com/acme/bundles.git", "git@github.com:acme/bundles.git",
        "https://github.com/acme/bundles");
  }

  /** X-Hub-Signature-256 is the hex HMAC-SHA256 of the raw body after "sha256=". */
  static Delivery github(String event, String body, String secret) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    return new Delivery(headers(Map.of("Content-Type", "application/json", "User-Agent", "GitHub-Hookshot/044aadd",
        "X-GitHub-Event", event, "X-GitHub-Delivery", UUID.randomUUID().toString(), "X-GitHub-Hook-ID", "292430182",
        "X-Hub-Signature-256", "sha256=" + DeliveryAuthentication.hmacSha256Hex(utf8(secret), bytes))), bytes);
  }

  static String gitlabPushBody(String objectKind, String ref) {
    return """
        {"object_kind":"%s","event_name":"%s","before":"%s","after":"%s","ref":"%s","ref_protected":true,
         "checkout_sha":"%s","message":null,"user_id":4,"user_name":"John Smith","user_username":"jsmith",
         "user_email":"","project_id":15,
         "project":{"id":15,"name":"bundles","description":"","web_url":"https://gitlab.example.com/ci/bundles",
           "git_ssh_url":"git@gitlab.example.com:ci/bundles.git","git_http_url":"https://gitlab.example.com/ci/bundles.git",
           "namespace":"ci","visibility_level":0,"path_with_namespace":"ci/bundles","default_branch":"main",
           "homepage":"https://gitlab.example.com/ci/bundles","url":"git@gitlab.example.com:ci/bundles.git",
           "ssh_url":"git@gitlab.example.com:ci/bundles.git","http_url":"https://gitlab.example.com/ci/bundles.git"},
         "commits":[],"total_commits_count":0,"push_options":{},
         "repository":{"name":"bundles","url":"git@gitlab.example.com:ci/bundles.git","description":"",
           "homepage":"https://gitlab.example.com/ci/bundles","git_http_url":"https://gitlab.example.com/ci/bundles.git",
           "git_ssh_url":"git@gitlab.example.com:ci/bundles.git","visibility_level":0}}
        """.formatted(objectKind, objectKind, BEFORE, AFTER, ref, AFTER);
  }

  /** GitLab sends the secret token itself in X-Gitlab-Token. */
  static Delivery gitlab(String event, String body, String token) {
    return new Delivery(headers(Map.of("Content-Type", "application/json", "User-Agent", "GitLab/18.6.0",
        "X-Gitlab-Event", event, "X-Gitlab-Instance", "https://gitlab.example.com",
        "X-Gitlab-Webhook-UUID", UUID.randomUUID().toString(), "X-Gitlab-Token", token)),
        body.getBytes(StandardCharsets.UTF_8));
  }

  static String giteaPushBody(String ref, String host) {
    return """
        {"ref":"%s","before":"%s","after":"%s","compare_url":"https://%s/ci/bundles/compare/%s...%s",
         "commits":[{"id":"%s","message":"Raise the executor count\\n","url":"https://%s/ci/bundles/commit/%s",
           "author":{"name":"Gitea","email":"someone@example.com","username":"gitea"},
           "committer":{"name":"Gitea","email":"someone@example.com","username":"gitea"},
           "timestamp":"2026-11-30T10:00:00+01:00"}],
         "total_commits":1,
         "repository":{"id":140,"owner":{"id":1,"login":"ci","full_name":"","username":"ci"},"name":"bundles",
           "full_name":"ci/bundles","private":false,"fork":false,"html_url":"https://%s/ci/bundles",
           "ssh_url":"git@%s:ci/bundles.git","clone_url":"https://%s/ci/bundles.git","default_branch":"main"},
         "pusher":{"id":1,"login":"gitea","username":"gitea"},"sender":{"id":1,"login":"gitea","username":"gitea"}}
        """.formatted(ref, BEFORE, AFTER, host, BEFORE, AFTER, AFTER, host, AFTER, host, host, host);
  }

  /** Gitea signs with a bare hex HMAC-SHA256 and also sends GitHub's and Gogs' event headers. */
  static Delivery gitea(String event, String body, String secret) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    String signature = DeliveryAuthentication.hmacSha256Hex(utf8(secret), bytes);
    String delivery = UUID.randomUUID().toString();
    return new Delivery(headers(Map.of("Content-Type", "application/json", "X-Gitea-Event", event,
        "X-Gitea-Delivery", delivery, "X-Gitea-Signature", signature, "X-Gogs-Event", event,
        "X-GitHub-Event", event, "X-GitHub-Delivery", delivery, "X-Hub-Signature-256", "sha256=" + signature)), bytes);
  }

  /** Forgejo sends its own headers and, for compatibility, Gitea's and GitHub's. */
  static Delivery forgejo(String event, String body, String secret) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    String signature = DeliveryAuthentication.hmacSha256Hex(utf8(secret), bytes);
    Headers headers = gitea(event, body, secret).headers();
    headers.set("X-Forgejo-Event", event);
    headers.set("X-Forgejo-Delivery", UUID.randomUUID().toString());
    headers.set("X-Forgejo-Signature", signature);
    return new Delivery(headers, bytes);
  }

  /** refs_changed with one change per ref: the ref's id, display id and BRANCH or TAG. */
  static String bitbucketRefsChangedBody(String... refs) {
    StringBuilder changes = new StringBuilder();
    for (String ref : refs) {
      boolean tag = ref.startsWith("refs/tags/");
      String display = ref.substring(ref.indexOf('/', 5) + 1);
      changes.append(changes.isEmpty() ? "" : ",").append("""
          {"ref":{"id":"%s","displayId":"%s","type":"%s"},"refId":"%s","fromHash":"%s","toHash":"%s","type":"UPDATE"}"""
          .formatted(ref, display, tag ? "TAG" : "BRANCH", ref, BEFORE, AFTER));
    }
    return """
        {"eventKey":"repo:refs_changed","date":"2026-11-30T10:00:00+0100",
         "actor":{"name":"admin","emailAddress":"admin@example.com","id":1,"displayName":"Administrator",
           "active":true,"slug":"admin","type":"NORMAL"},
         "repository":{"slug":"bundles","id":84,"name":"bundles","hierarchyId":"af05451fc6ee5fb1ef43","scmId":"git",
           "state":"AVAILABLE","statusMessage":"Available","forkable":true,
           "project":{"key":"CI","id":84,"name":"Continuous Integration","public":false,"type":"NORMAL"},
           "public":false,
           "links":{"clone":[{"href":"ssh://git@bitbucket.example.com:7999/ci/bundles.git","name":"ssh"},
             {"href":"https://bitbucket.example.com/scm/ci/bundles.git","name":"http"}],
             "self":[{"href":"https://bitbucket.example.com/projects/CI/repos/bundles/browse"}]}},
         "changes":[%s]}
        """.formatted(changes);
  }

  /** Bitbucket Server signs like GitHub, in X-Hub-Signature. */
  static Delivery bitbucketServer(String eventKey, String body, String secret) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    return new Delivery(headers(Map.of("Content-Type", "application/json; charset=utf-8",
        "X-Event-Key", eventKey, "X-Request-Id", UUID.randomUUID().toString(),
        "X-Hub-Signature", "sha256=" + DeliveryAuthentication.hmacSha256Hex(utf8(secret), bytes))), bytes);
  }

  /** The envelope of application/vnd.docker.distribution.events.v1+json with one manifest push. */
  static String registryPushBody(String host, String repository, String tag, String digest) {
    return """
        {"events":[{"id":"320678d8-ca14-430f-8bb6-4ca139cd83f7","timestamp":"2026-11-30T10:00:00.000Z","action":"push",
          "target":{"mediaType":"application/vnd.oci.image.manifest.v1+json","size":708,"digest":"%s","length":708,
            "repository":"%s","url":"http://%s/v2/%s/manifests/%s","tag":"%s"},
          "request":{"id":"6df24a34-0959-4923-81ca-14f09767db19","addr":"127.0.0.1:43210","host":"%s","method":"PUT",
            "useragent":"oras-java"},
          "actor":{},"source":{"addr":"registry-0:5000","instanceID":"cbd68a6a-8f52-4f4b-9a3d-0f5c8b1f9e11"}},
         {"id":"a6e5b6b2-5c0b-4e9f-9d3a-1f2e3d4c5b6a","timestamp":"2026-11-30T10:00:00.000Z","action":"pull",
          "target":{"mediaType":"application/vnd.oci.image.manifest.v1+json","size":708,"digest":"%s","length":708,
            "repository":"%s","url":"http://%s/v2/%s/manifests/%s","tag":"%s"},
          "request":{"id":"7df24a34-0959-4923-81ca-14f09767db19","addr":"127.0.0.1:43211","host":"%s","method":"GET",
            "useragent":"oras-java"},"actor":{},"source":{"addr":"registry-0:5000","instanceID":"cbd68a6a"}}]}
        """.formatted(digest, repository, host, repository, digest, tag, host,
        digest, repository, host, repository, digest, tag, host);
  }

  static Delivery registry(String body, String token) {
    return new Delivery(headers(Map.of("Content-Type", "application/vnd.docker.distribution.events.v1+json",
        "User-Agent", "Go-http-client/1.1", "Authorization", "Bearer " + token)), body.getBytes(StandardCharsets.UTF_8));
  }

  private static Headers headers(Map<String, String> values) {
    Headers headers = new Headers();
    values.forEach(headers::set);
    return headers;
  }

  private static byte[] utf8(String value) {
    return value.getBytes(StandardCharsets.UTF_8);
  }
}
