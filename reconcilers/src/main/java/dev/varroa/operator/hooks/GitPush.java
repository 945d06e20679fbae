package dev.varroa.operator.hooks;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A push to a Git repository, as a provider's webhook names it.
 *
 * @param provider who sent it
 * @param repositoryUrls every URL the payload gives for the repository (https and ssh clone URLs, web URL)
 * @param refs the refs pushed, in full: {@code refs/heads/main}, {@code refs/tags/v1.2.0}
 */
public record GitPush(GitProvider provider, List<String> repositoryUrls, List<String> refs) implements PushNotice {
  public static final String BRANCH_PREFIX = "refs/heads/";
  public static final String TAG_PREFIX = "refs/tags/";

  public GitPush {
    repositoryUrls = List.copyOf(repositoryUrls);
    refs = List.copyOf(refs);
  }

  @Override
  public String describe() {
    String repository = repositoryUrls.stream().map(RepositoryKey::ofGitUrl).flatMap(Optional::stream)
        .map(RepositoryKey::toString).distinct().collect(Collectors.joining(","));
    return provider.displayName() + " push to " + repository + " " + String.join(",", refs);
  }
}
