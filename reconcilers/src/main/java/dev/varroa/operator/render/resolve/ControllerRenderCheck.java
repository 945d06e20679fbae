package dev.varroa.operator.render.resolve;

import dev.varroa.bundle.render.RenderedBundle;
import java.util.ArrayList;
import java.util.List;

/**
 * What keeps a resolved Controller from rendering once its bundle rendered: the reconciler reports it as
 * ReconcileBlocked and {@code varroactl render controller} as invalid input, with the same words.
 * (A bundle that leaves Jenkins open is refused earlier, by the composer's own check.)
 */
public final class ControllerRenderCheck {
  public static final String CLAIM_GATE_FIELD = "spec.buildClaims.gate";

  private ControllerRenderCheck() {}

  /**
   * @param bundleName how messages name the bundle, e.g. {@code ComposedBundle team-a}
   */
  public static List<SettingsProblem> problems(ResolvedController controller, String bundleName,
      RenderedBundle bundle, InstallationDefaults installation) {
    List<SettingsProblem> problems = new ArrayList<>();
    VarroaPlugin.lockedBy(bundle.pluginsText()).filter(v -> !v.equals(VarroaPlugin.VERSION)).ifPresent(v ->
        problems.add(new SettingsProblem("plugins[" + VarroaPlugin.ID + "]", "the lock of " + bundleName
            + " names plugin " + VarroaPlugin.ID + " " + v + ", but the operator installs " + VarroaPlugin.ID + " "
            + VarroaPlugin.VERSION + ", the plugin of its own release",
            "remove " + VarroaPlugin.ID + " from the bundle's plugins.yaml and the JenkinsVersionProfile's plugins:"
                + " the operator adds it to every Controller")));
    if (controller.claimGate() && !installation.recordStore()) {
      problems.add(new SettingsProblem(CLAIM_GATE_FIELD, "the claim gate is on, but this installation runs no"
          + " build record store, whose ledger grants the claims (queued builds would never start)",
          "install Varroa with recordStore.enabled=true (the operator then gets "
              + InstallationDefaults.ENV_RECORD_STORE_ENABLED + "=true), or set " + CLAIM_GATE_FIELD + " to false"));
    }
    return problems;
  }
}
