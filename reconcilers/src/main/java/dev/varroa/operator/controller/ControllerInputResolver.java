package dev.varroa.operator.controller;

import dev.varroa.api.v1alpha1.ComposedBundle;
import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerClass;
import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.api.v1alpha1.UpdateCenter;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.StarterBundle;
import dev.varroa.bundle.render.RenderedBundle;
import dev.varroa.operator.bundle.BundleConfigMap;
import dev.varroa.operator.render.CellLayerResolver;
import dev.varroa.operator.render.JenkinsAuthorizationRenderer;
import dev.varroa.operator.render.resolve.ControllerRenderCheck;
import dev.varroa.operator.render.resolve.ControllerSettingsResolver;
import dev.varroa.operator.render.resolve.ResolvedController;
import dev.varroa.operator.render.resolve.SettingsProblem;
import dev.varroa.operator.render.resolve.UpdateCenterCoverage;
import dev.varroa.operator.render.resolve.UpdateCenterSelection;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The resolution step of a Controller pass: gathers every input from the caches into one value, or
 * one reason the pass cannot go on that names the fix. Reads only its lookup; writes nothing.
 */
final class ControllerInputResolver {
  /** What the resolution step found. */
  sealed interface Gathered {}

  /** Every input is there. */
  record Ready(ControllerInputs inputs) implements Gathered {}

  /** An input is missing or unusable; the message names the object, the field and the fix. */
  record Blocked(String message) implements Gathered {}

  /** The ComposedBundle exists but has no render yet: its reconciler will store one. */
  record WaitingForBundle(String bundleName) implements Gathered {}

  private ControllerInputResolver() {}

  static Gathered gather(Controller controller, ControllerInputLookup lookup, StarterRenders starter) {
    String namespace = controller.getMetadata().getNamespace();
    Optional<ControllerClass> controllerClass = classOf(controller, lookup);
    if (controller.getSpec().classRef != null && controllerClass.isEmpty()) {
      return new Blocked("ControllerClass " + controller.getSpec().classRef.name
          + " does not exist; fix: create it, or correct spec.classRef.name");
    }
    ControllerSettingsResolver.Resolution resolution =
        ControllerSettingsResolver.resolve(controller, controllerClass, lookup.defaults(),
        lookup.installation().miteImage());
    if (!resolution.ok()) {
      return new Blocked(resolution.problems().stream().map(SettingsProblem::format).collect(Collectors.joining("; ")));
    }
    ResolvedController resolved = resolution.controller();
    Optional<ComposedBundle> bundle = resolved.composedBundle().flatMap(name -> lookup.bundle(namespace, name));
    if (resolved.composedBundle().isPresent() && bundle.isEmpty()) {
      return new Blocked("ComposedBundle " + resolved.composedBundle().get() + " does not exist in namespace "
          + namespace + "; fix: create it, or correct spec.composedBundleRef.name");
    }
    Optional<String> profileName = profileName(resolved, bundle);
    Optional<JenkinsVersionProfile> profile = profileName.flatMap(lookup::profile);
    if (profile.isEmpty()) {
      return new Blocked(profileName.map(n -> "JenkinsVersionProfile " + n + " does not exist")
          .orElse("no JenkinsVersionProfile is named") + "; fix: set spec.versionProfileRef to a profile that exists");
    }

    String bundleName = resolved.composedBundle().orElse(StarterBundle.NAME);
    RenderedBundle rendered;
    if (bundle.isPresent()) {
      Optional<Condition> stalled = bundle.get().getStatus() == null ? Optional.empty()
          : bundle.get().getStatus().condition(Condition.STALLED).filter(c -> c.status == Condition.Status.True);
      if (stalled.isPresent()) {
        return new Blocked("ComposedBundle " + bundleName + " cannot render: " + stalled.get().message);
      }
      Optional<RenderedBundle> stored = lookup.bundleRender(namespace, bundleName).flatMap(BundleConfigMap::read);
      if (stored.isEmpty()) {
        return new WaitingForBundle(bundleName);
      }
      rendered = stored.get();
    } else {
      try {
        rendered = starter.render(profile.get());
      } catch (BundleException e) {
        // each problem names its own fix (a profile overlay that opens Jenkins, say); the generic one is for the rest
        boolean fixed = e.problems().stream().allMatch(p -> p.fix() != null && !p.fix().isEmpty());
        return new Blocked("the built-in " + StarterBundle.NAME + " bundle does not render with JenkinsVersionProfile "
            + profile.get().getMetadata().getName() + ": " + e.getMessage()
            + (fixed ? "" : "; fix: use a profile that lists the starter's plugins"));
      }
    }

    java.util.List<SettingsProblem> refused = ControllerRenderCheck.problems(resolved,
        describe(bundleName, bundle.isPresent()), rendered, lookup.installation());
    if (!refused.isEmpty()) {
      return new Blocked(refused.stream().map(SettingsProblem::format).collect(Collectors.joining("; ")));
    }

    UpdateCenterSelection.Choice updateCenter = UpdateCenterSelection.choose(lookup.updateCenters());
    if (updateCenter.problem().isPresent()) {
      return new Blocked(updateCenter.problem().get().format());
    }
    Optional<UpdateCenter> installFrom = lookup.installation().updateCenter(updateCenter.updateCenter());
    Optional<String> lacking = installFrom
        .flatMap(uc -> UpdateCenterCoverage.lacking(uc, describe(bundleName, bundle.isPresent()), rendered));
    if (lacking.isPresent()) {
      return new Blocked(lacking.get());
    }

    CellLayerResolver.Resolution cell = CellLayerResolver.resolve(controller, key -> {
      dev.varroa.api.v1alpha1.TeamRef team = dev.varroa.api.v1alpha1.TeamRef.parse(key, namespace);
      return lookup.team(team.namespace(), team.name());
    },
        rendered, describe(bundleName, bundle.isPresent()), profile.get(), installFrom);
    if (cell.blocked().isPresent()) {
      return new Blocked(cell.blocked().get());
    }

    JenkinsAuthorizationRenderer.Outcome authorization = JenkinsAuthorizationRenderer.render(
        new JenkinsAuthorizationRenderer.Request(namespace, lookup.jenkinsRoleBindings(), lookup::jenkinsRole,
            profile.get().getMetadata().getName(), describe(bundleName, bundle.isPresent()), rendered,
            lookup.installation().jenkinsLogin()), cell.layer());
    if (authorization instanceof JenkinsAuthorizationRenderer.Refused refusedAuthorization) {
      return new Blocked(refusedAuthorization.message());
    }
    Optional<JenkinsAuthorizationRenderer.Authorization> rendersAuthorization =
        authorization instanceof JenkinsAuthorizationRenderer.Rendered r ? Optional.of(r.authorization())
            : Optional.empty();
    return new Ready(new ControllerInputs(resolved, profile.get(), bundleName, rendered, installFrom,
        lookup.podTemplates(namespace), lookup.installation(), rendersAuthorization, cell.layer()));
  }

  private static String describe(String bundleName, boolean composed) {
    return composed ? "ComposedBundle " + bundleName : "the built-in " + bundleName + " bundle";
  }

  /**
   * The JenkinsVersionProfile a Controller uses, directly or through its bundle, class or the defaults;
   * empty when its settings do not resolve. Tells which Controllers a profile change concerns.
   */
  static Optional<String> profileName(Controller controller, ControllerInputLookup lookup) {
    if (controller.getSpec() == null) {
      return Optional.empty();
    }
    ControllerSettingsResolver.Resolution resolution =
        ControllerSettingsResolver.resolve(controller, classOf(controller, lookup), lookup.defaults(),
            lookup.installation().miteImage());
    ResolvedController resolved = resolution.controller();
    return profileName(resolved, resolved.composedBundle()
        .flatMap(name -> lookup.bundle(controller.getMetadata().getNamespace(), name)));
  }

  private static Optional<String> profileName(ResolvedController resolved, Optional<ComposedBundle> bundle) {
    return resolved.versionProfile(bundle.map(b -> b.getSpec().versionProfileRef));
  }

  private static Optional<ControllerClass> classOf(Controller controller, ControllerInputLookup lookup) {
    return controller.getSpec().classRef == null ? Optional.empty()
        : lookup.controllerClass(controller.getSpec().classRef.name);
  }
}
