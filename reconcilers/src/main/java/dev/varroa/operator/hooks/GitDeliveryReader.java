package dev.varroa.operator.hooks;

import com.sun.net.httpserver.Headers;
import java.util.Optional;

/** Reads a delivery to /hooks/git: which provider sent it, whether it is authentic, and what it pushed. */
public final class GitDeliveryReader {
  private GitDeliveryReader() {}

  /** The authenticity check comes before the event type, so an unsigned ping is refused, not ignored. */
  public static Verdict read(Headers headers, byte[] body, byte[] secret) {
    Optional<GitProvider> detected = GitProvider.of(headers);
    if (detected.isEmpty()) {
      return new Verdict.Malformed("no " + GitProvider.eventHeaders() + " header; fix: configure the webhook as a"
          + " GitHub, GitLab, Gitea, Forgejo or Bitbucket Server webhook, or send registry notifications to /hooks/registry");
    }
    GitProvider provider = detected.get();
    String credential = headers.getFirst(provider.credentialHeader());
    if (credential == null) {
      return new Verdict.Refused(provider.displayName() + " delivery without " + provider.credentialHeader()
          + "; fix: set the webhook's secret to the shared secret");
    }
    if (!provider.authentic(credential, body, secret)) {
      return new Verdict.Refused(provider.credentialHeader() + " does not match; fix: set the webhook's secret to the"
          + " value of the shared Secret");
    }
    String event = headers.getFirst(provider.eventHeader());
    if (!provider.isPush(event)) {
      return new Verdict.Ignored(provider.eventHeader() + " '" + event + "' is not a push; nothing re-checked");
    }
    try {
      return new Verdict.Accepted(provider.parse(PayloadJson.read(headers.getFirst("Content-Type"), body)));
    } catch (MalformedPayloadException e) {
      return new Verdict.Malformed(provider.displayName() + " push: " + e.getMessage());
    }
  }
}
