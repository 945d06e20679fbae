package dev.varroa.operator.hooks;

import dev.varroa.api.v1alpha1.BundleInput;
import dev.varroa.api.v1alpha1.CatalogSource;
import dev.varroa.api.v1alpha1.ComposedBundle;
import dev.varroa.api.v1alpha1.Team;
import dev.varroa.api.v1alpha1.TeamSpec;
import dev.varroa.api.v1alpha1.GitSource;
import dev.varroa.api.v1alpha1.OciSource;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which followed objects a push concerns. A branch push concerns inputs following that branch; a tag
 * push, inputs following that tag or any semver range; nothing concerns an input pinned to a commit or
 * a digest. Suspended objects are left alone, as their reconciler would not look anyway.
 */
public final class PushMatcher {
  /** The branch a Team's pipeline builds when spec.pipelines[].branch is omitted (the generated layer's default). */
  static final String DEFAULT_BRANCH = dev.varroa.operator.render.TeamFoldersFragment.DEFAULT_BRANCH;

  private PushMatcher() {}

  public static Rechecks match(PushNotice notice, List<ComposedBundle> bundles, List<CatalogSource> sources) {
    if (notice instanceof GitPush git) {
      return match(git, bundles, sources);
    }
    return match((RegistryPush) notice, bundles, sources);
  }

  static Rechecks match(GitPush push, List<ComposedBundle> bundles, List<CatalogSource> sources) {
    Set<RepositoryKey> repositories = push.repositoryUrls().stream().map(RepositoryKey::ofGitUrl)
        .flatMap(Optional::stream).collect(Collectors.toSet());
    Set<ResourceID> matchedBundles = new HashSet<>();
    for (ComposedBundle bundle : bundles) {
      if (bundle.getSpec() != null && active(bundle.getSpec().suspend)
          && inputs(bundle).stream().map(i -> i.git).anyMatch(git -> follows(git, repositories, push.refs()))) {
        matchedBundles.add(ResourceID.fromResource(bundle));
      }
    }
    Set<ResourceID> matchedSources = new HashSet<>();
    for (CatalogSource source : sources) {
      if (source.getSpec() != null && active(source.getSpec().suspend)
          && follows(source.getSpec().git, repositories, push.refs())) {
        matchedSources.add(ResourceID.fromResource(source));
      }
    }
    return new Rechecks(matchedBundles, matchedSources);
  }

  /** A Team's pipeline a push runs. */
  public record PushedPipeline(Team team, String pipeline) {
    public String describe() {
      return team.getMetadata().getNamespace() + "/" + team.getMetadata().getName() + "/" + pipeline;
    }
  }

  /**
   * The pipelines with {@code triggers.push} whose repository is the pushed one and whose branch (default main, as the
   * generated job checks out) was pushed; each once, ordered by namespace, Team and pipeline.
   */
  public static List<PushedPipeline> pipelines(GitPush push, List<Team> teams) {
    Set<RepositoryKey> repositories = push.repositoryUrls().stream().map(RepositoryKey::ofGitUrl)
        .flatMap(Optional::stream).collect(Collectors.toSet());
    List<PushedPipeline> pushed = new java.util.ArrayList<>();
    for (Team team : teams) {
      if (team.getSpec() == null || team.getSpec().pipelines == null) {
        continue;
      }
      for (TeamSpec.Pipeline pipeline : team.getSpec().pipelines) {
        boolean onPush = pipeline.triggers != null && Boolean.TRUE.equals(pipeline.triggers.push);
        String branch = pipeline.branch == null || pipeline.branch.isBlank() ? DEFAULT_BRANCH : pipeline.branch;
        if (onPush && pipeline.name != null && RepositoryKey.ofGitUrl(pipeline.repository)
            .filter(repositories::contains).isPresent()
            && push.refs().contains(fullRef(branch, GitPush.BRANCH_PREFIX))) {
          pushed.add(new PushedPipeline(team, pipeline.name));
        }
      }
    }
    pushed.sort(java.util.Comparator.comparing(PushedPipeline::describe));
    return pushed;
  }

  static Rechecks match(RegistryPush push, List<ComposedBundle> bundles, List<CatalogSource> sources) {
    Set<ResourceID> matchedBundles = new HashSet<>();
    for (ComposedBundle bundle : bundles) {
      if (bundle.getSpec() != null && active(bundle.getSpec().suspend)
          && inputs(bundle).stream().map(i -> i.oci).anyMatch(oci -> follows(oci, push.tags()))) {
        matchedBundles.add(ResourceID.fromResource(bundle));
      }
    }
    Set<ResourceID> matchedSources = new HashSet<>();
    for (CatalogSource source : sources) {
      if (source.getSpec() != null && active(source.getSpec().suspend) && follows(source.getSpec().oci, push.tags())) {
        matchedSources.add(ResourceID.fromResource(source));
      }
    }
    return new Rechecks(matchedBundles, matchedSources);
  }

  private static boolean follows(GitSource git, Set<RepositoryKey> repositories, List<String> refs) {
    if (git == null || git.ref == null || RepositoryKey.ofGitUrl(git.url).filter(repositories::contains).isEmpty()) {
      return false;
    }
    if (git.ref.branch != null) {
      return refs.contains(fullRef(git.ref.branch, GitPush.BRANCH_PREFIX));
    }
    if (git.ref.tag != null) {
      return refs.contains(fullRef(git.ref.tag, GitPush.TAG_PREFIX));
    }
    // A semver range may now resolve to the new tag; a commit never moves.
    return git.ref.semver != null && refs.stream().anyMatch(ref -> ref.startsWith(GitPush.TAG_PREFIX));
  }

  private static boolean follows(OciSource oci, List<RegistryPush.PushedTag> tags) {
    if (oci == null || oci.ref == null) {
      return false;
    }
    Optional<RepositoryKey> followed = RepositoryKey.ofOciUrl(oci.url);
    return followed.isPresent() && tags.stream()
        .filter(t -> RepositoryKey.ofRegistry(t.host(), t.repository()).equals(followed))
        .anyMatch(t -> oci.ref.semver != null || (oci.ref.tag != null && oci.ref.tag.equals(t.tag())));
  }

  private static String fullRef(String name, String prefix) {
    return name.startsWith("refs/") ? name : prefix + name;
  }

  private static boolean active(Boolean suspend) {
    return !Boolean.TRUE.equals(suspend);
  }

  private static List<BundleInput> inputs(ComposedBundle bundle) {
    return bundle.getSpec() == null || bundle.getSpec().inputs == null ? List.of() : bundle.getSpec().inputs;
  }
}
