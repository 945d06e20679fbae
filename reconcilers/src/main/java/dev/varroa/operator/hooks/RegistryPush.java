package dev.varroa.operator.hooks;

import java.util.List;
import java.util.stream.Collectors;

/** The manifests a distribution registry says were pushed under a tag (blob pushes and pulls are left out). */
public record RegistryPush(List<PushedTag> tags) implements PushNotice {
  public RegistryPush {
    tags = List.copyOf(tags);
  }

  /**
   * @param host the registry as the pusher addressed it ({@code request.host}), e.g. {@code registry.example.com:5000}
   * @param repository the repository inside the registry, e.g. {@code ci/bundles/team-a}
   * @param tag the tag the manifest was pushed under
   * @param digest the manifest digest, for logs
   */
  public record PushedTag(String host, String repository, String tag, String digest) {}

  @Override
  public String describe() {
    return "registry push of " + tags.stream().map(t -> t.host() + "/" + t.repository() + ":" + t.tag())
        .distinct().collect(Collectors.joining(","));
  }
}
