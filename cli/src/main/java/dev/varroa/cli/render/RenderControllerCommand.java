package dev.varroa.cli.render;

import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleProblem;
import dev.varroa.cli.input.InvalidInputException;
import dev.varroa.cli.input.ManifestSet;
import dev.varroa.operator.render.ChannelEndpoint;
import dev.varroa.operator.render.ControllerObjects;
import dev.varroa.operator.render.resolve.InstallationDefaults;
import dev.varroa.operator.render.resolve.SettingsProblem;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** `varroactl render controller`: every object the operator would own for one Controller. */
@Command(
    name = "controller",
    mixinStandardHelpOptions = true,
    description = {
        "Prints every Kubernetes object the operator would own for one Controller (agents namespace and RBAC,"
            + " ServiceAccount, ConfigMaps, Service, StatefulSet, Ingress), resolving ProvisioningDefaults"
            + " 'default', the ControllerClass, the JenkinsVersionProfile, the UpdateCenter, PodTemplates and the"
            + " bundle from the given files exactly as the operator does.",
        "Exit codes: 0 rendered, 2 invalid input (bad YAML, missing object or reference, invalid settings),"
            + " 3 conflict (what the operator reports as ReconcileBlocked)."})
public final class RenderControllerCommand implements Callable<Integer> {
  /** A UID for offline renders: the StatefulSet is named {@code <name>-00000000}. */
  public static final String PLACEHOLDER_UID = "00000000-0000-0000-0000-000000000000";

  /** Output formats of -o. */
  enum Format { yaml, json }

  @Option(names = "-f", required = true, paramLabel = "PATH",
      description = "YAML file or folder of them (multi-document); repeatable. Holds the Controller and what it uses:"
          + " ProvisioningDefaults, ControllerClass, ComposedBundle and its inputs' objects, JenkinsVersionProfile,"
          + " UpdateCenter, PodTemplates; for a cell, its Teams and the JenkinsRoleBindings and JenkinsRoles"
          + " that apply.")
  List<Path> files = new ArrayList<>();

  @Option(names = "--name", paramLabel = "NAME", description = "The Controller to render when the files hold several.")
  String name;

  @Option(names = "--uid", paramLabel = "UID",
      description = "The Controller's metadata.uid, whose first 8 characters name the StatefulSet; default: ${DEFAULT-VALUE}.")
  String uid = PLACEHOLDER_UID;

  @Option(names = "-o", paramLabel = "FORMAT",
      description = "yaml (one stream, objects separated by ---) or json (a v1 List); default: ${DEFAULT-VALUE}.")
  Format format = Format.yaml;

  @Option(names = "--cache-dir", paramLabel = "DIR",
      description = "Where Git inputs of a ComposedBundle are cached; default: $XDG_CACHE_HOME/varroa or ~/.cache/varroa.")
  Path cacheDir;

  @Option(names = "--plain-http-registry", paramLabel = "HOST:PORT",
      description = "An OCI registry reached over plain HTTP instead of HTTPS; repeatable.")
  List<String> plainHttpRegistries = new ArrayList<>();

  @Option(names = "--gateway-endpoint", paramLabel = "HOST:PORT",
      description = "Where the mite registers, as the operator's VARROA_GATEWAY_ENDPOINT; default: ${DEFAULT-VALUE}.")
  String gatewayEndpoint = ChannelEndpoint.DEFAULT_GATEWAY_ENDPOINT;

  @Option(names = "--ca-file", paramLabel = "PEM",
      description = "The Varroa CA certificate, as the operator's VARROA_CA_CERT_FILE; default: none (empty ca.crt).")
  Path caFile;

  @Option(names = "--jwt-public-key-file", paramLabel = "PEM",
      description = "The Jenkins token verification key; default: none (empty jwt-public.pem).")
  Path jwtPublicKeyFile;

  @Option(names = "--record-store",
      description = "Render as an installation that runs the build record store (chart recordStore.enabled=true,"
          + " the operator's VARROA_RECORD_STORE_ENABLED), which spec.buildClaims.gate needs.")
  boolean recordStore;

  @Option(names = "--varroa-plugin-url", paramLabel = "URL",
      description = "Where the plugins init container downloads the Varroa plugin's .hpi, as the operator's"
          + " VARROA_JENKINS_PLUGIN_URL; default: from the update center in force.")
  String varroaPluginUrl;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    List<HasMetadata> objects;
    try {
      InstallationDefaults installation;
      try {
        installation = new InstallationDefaults(InstallationDefaults.none().miteImage(), java.util.Optional.empty(),
            java.util.Optional.ofNullable(varroaPluginUrl), recordStore);
      } catch (IllegalArgumentException e) {
        err.println("varroactl: invalid input: --varroa-plugin-url: " + e.getMessage());
        err.flush();
        return InvalidInputException.EXIT_CODE;
      }
      OfflineController offline = new OfflineController(ManifestSet.read(files), files, cacheDir, plainHttpRegistries);
      objects = ControllerObjects.render(offline.resolve(name, uid, new ChannelEndpoint(gatewayEndpoint,
          read(caFile), read(jwtPublicKeyFile)), installation));
    } catch (BundleException e) {
      for (BundleProblem problem : e.problems()) {
        err.println("varroactl: " + problem.format());
      }
      err.flush();
      return e.exitCode();
    } catch (OfflineController.SettingsInvalidException e) {
      for (SettingsProblem problem : e.problems) {
        err.println("varroactl: invalid input: " + problem.format());
      }
      err.flush();
      return InvalidInputException.EXIT_CODE;
    } catch (java.io.IOException e) {
      err.println("varroactl: invalid input: cannot read " + e.getMessage() + "; fix: pass a readable PEM file");
      err.flush();
      return InvalidInputException.EXIT_CODE;
    }
    PrintWriter out = spec.commandLine().getOut();
    out.print(format == Format.json ? ObjectStream.json(objects) : ObjectStream.yaml(objects));
    out.flush();
    return 0;
  }

  private static String read(Path file) throws java.io.IOException {
    return file == null ? "" : java.nio.file.Files.readString(file);
  }
}
