package io.verso.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import io.verso.config.VersoProperties;
import io.verso.replica.ReplicaProperties;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ClassPathResource;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * Lints and renders the Helm chart in {@code helm/verso} with helm-java (Helm linked in as a native library, no
 * {@code helm} binary and no cluster needed) and checks the rendered manifests as parsed YAML.
 */
class HelmChartTests {

    private static final Path CHART = Paths.get(System.getProperty("basedir", ".")).resolve("helm/verso");

    private static final String RELEASE = "verso";

    private static final String DB_URL = "jdbc:postgresql://db.example.internal:5432/verso";

    // ---------------------------------------------------------------- lint

    @Test
    void lintPassesWithDefaultValuesPlusDatabaseUrl(@TempDir Path tmp) throws IOException {
        // `helm lint` takes no --set here, so lint a copy of the chart whose values.yaml has database.url filled in.
        Path chart = copyChart(tmp.resolve("verso"));
        Path valuesFile = chart.resolve("values.yaml");
        Map<String, Object> values;
        try (Reader reader = Files.newBufferedReader(valuesFile)) {
            values = new Yaml().load(reader);
        }
        map(values, "database").put("url", DB_URL);
        try (Writer writer = Files.newBufferedWriter(valuesFile)) {
            new Yaml().dump(values, writer);
        }

        LintResult result = new Helm(chart).lint().strict().call();

        assertThat(result.isFailed()).as("lint messages: %s", result.getMessages()).isFalse();
        assertThat(result.getMessages()).noneMatch(message -> message.contains("[ERROR]"))
                .noneMatch(message -> message.contains("[WARNING]"));
    }

    @Test
    void valuesFileDocumentsEveryValue() throws IOException {
        Node root;
        try (Reader reader = Files.newBufferedReader(CHART.resolve("values.yaml"))) {
            root = new Yaml(new LoaderOptions().setProcessComments(true)).compose(reader);
        }
        List<String> undocumented = new ArrayList<>();
        collectUndocumented((MappingNode) root, "", undocumented);
        assertThat(undocumented).as("values without a comment in values.yaml").isEmpty();
    }

    // ---------------------------------------------------------------- defaults

    @Test
    void defaultsRenderDeploymentWithActuatorProbes() {
        Map<String, Object> container = container(deployment(render(template())));

        assertThat(probePath(container, "livenessProbe")).isEqualTo("/actuator/health/liveness");
        assertThat(probePath(container, "readinessProbe")).isEqualTo("/actuator/health/readiness");
        assertThat(probePath(container, "startupProbe")).isEqualTo("/actuator/health/liveness");
        for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
            assertThat(map(map(container, probe), "httpGet").get("port")).as(probe + " port").isEqualTo("management");
        }
        // Actuator on its own port, which the Ingress (routing "http" only) never exposes.
        assertThat(findByName(list(container, "ports"), "management")).containsEntry("containerPort", 8081);
        Map<String, Object> zero = container(deployment(render(template().set("managementPort", 0))));
        assertThat(map(map(zero, "readinessProbe"), "httpGet").get("port")).isEqualTo("http");
        assertThat((Integer) map(container, "startupProbe").get("failureThreshold"))
                .as("startup failureThreshold").isGreaterThanOrEqualTo(30);
    }

    @Test
    void defaultsRenderNonRootReadOnlyPod() {
        Map<String, Object> deployment = deployment(render(template()));
        Map<String, Object> podSpec = podSpec(deployment);
        Map<String, Object> container = container(deployment);

        Map<String, Object> podSecurity = map(podSpec, "securityContext");
        assertThat(podSecurity).containsEntry("runAsNonRoot", true).containsEntry("runAsUser", 1000);
        assertThat(map(podSecurity, "seccompProfile")).containsEntry("type", "RuntimeDefault");

        Map<String, Object> security = map(container, "securityContext");
        assertThat(security).containsEntry("runAsNonRoot", true)
                .containsEntry("runAsUser", 1000)
                .containsEntry("readOnlyRootFilesystem", true)
                .containsEntry("allowPrivilegeEscalation", false);
        assertThat(list(map(security, "capabilities"), "drop")).containsExactly("ALL");
        assertThat(map(security, "seccompProfile")).containsEntry("type", "RuntimeDefault");

        // A read-only root filesystem needs a writable /tmp for Tomcat and the JVM.
        Map<String, Object> tmpMount = findByName(list(container, "volumeMounts"), "tmp");
        assertThat(tmpMount).containsEntry("mountPath", "/tmp");
        assertThat(findByName(list(podSpec, "volumes"), "tmp")).containsKey("emptyDir");
    }

    @Test
    void defaultsRenderImagePortsReplicasAndGracefulShutdown() {
        Map<String, Object> deployment = deployment(render(template()));
        Map<String, Object> podSpec = podSpec(deployment);
        Map<String, Object> container = container(deployment);

        assertThat(map(deployment, "spec")).containsEntry("replicas", 2);
        assertThat(container).containsEntry("image", "verso:0.1.0").containsEntry("imagePullPolicy", "IfNotPresent");
        assertThat(findByName(list(container, "ports"), "http")).containsEntry("containerPort", 8080);
        assertThat(podSpec).containsEntry("terminationGracePeriodSeconds", 45);
        assertThat(list(map(map(map(container, "lifecycle"), "preStop"), "exec"), "command"))
                .containsExactly("sleep", "10");
        assertThat(map(map(container, "resources"), "requests")).containsKeys("cpu", "memory");
        assertThat(map(map(container, "resources"), "limits")).containsKeys("cpu", "memory");
    }

    @Test
    void defaultsRenderDatabaseUrlAndCredentialsFromChartOwnedSecret() {
        List<Map<String, Object>> docs = render(template());
        Map<String, Object> container = container(deployment(docs));
        List<Map<String, Object>> env = list(container, "env");

        assertThat(findByName(env, "SPRING_DATASOURCE_URL")).containsEntry("value", DB_URL);
        Map<String, Object> username = secretKeyRef(env, "SPRING_DATASOURCE_USERNAME");
        Map<String, Object> password = secretKeyRef(env, "SPRING_DATASOURCE_PASSWORD");
        assertThat(username).containsEntry("name", "verso-db").containsEntry("key", "username");
        assertThat(password).containsEntry("name", "verso-db").containsEntry("key", "password");

        Map<String, Object> secret = single(docs, "Secret");
        assertThat(map(secret, "metadata")).containsEntry("name", "verso-db");
        assertThat(map(secret, "data")).containsOnlyKeys("username", "password");
    }

    @Test
    void defaultsRenderConfigMapLoadedThroughEnvFrom() {
        List<Map<String, Object>> docs = render(template());
        Map<String, Object> configMap = single(docs, "ConfigMap");
        String configMapName = (String) map(configMap, "metadata").get("name");

        List<Map<String, Object>> envFrom = list(container(deployment(docs)), "envFrom");
        assertThat(envFrom).anySatisfy(source ->
                assertThat(map(source, "configMapRef")).containsEntry("name", configMapName));

        Map<String, Object> data = map(configMap, "data");
        assertThat(data).containsEntry("SERVER_SHUTDOWN", "graceful")
                .containsEntry("SPRING_LIFECYCLE_TIMEOUT_PER_SHUTDOWN_PHASE", "30s")
                .containsEntry("SPRING_DATASOURCE_HIKARI_MAXIMUM_POOL_SIZE", "20")
                .containsEntry("VERSO_STATEMENT_TIMEOUT", "30s")
                .containsEntry("VERSO_MAX_REQUEST_BYTES", "16777216")
                .containsEntry("SPRING_GRAPHQL_GRAPHIQL_ENABLED", "false")
                .containsEntry("LOGGING_STRUCTURED_FORMAT_CONSOLE", "ecs")
                .containsKey("JAVA_TOOL_OPTIONS");
        assertThat((String) data.get("JAVA_TOOL_OPTIONS")).contains("-XX:MaxRAMPercentage=75");
        // ConfigMap data must be strings only, or the API server rejects it.
        assertThat(data.values()).allSatisfy(value -> assertThat(value).isInstanceOf(String.class));
    }

    @Test
    void defaultsRenderClusterIpServiceAndNoOptionalResources() {
        List<Map<String, Object>> docs = render(template());

        Map<String, Object> serviceSpec = map(single(docs, "Service"), "spec");
        assertThat(serviceSpec).containsEntry("type", "ClusterIP");
        Map<String, Object> port = findByName(list(serviceSpec, "ports"), "http");
        assertThat(port).containsEntry("port", 80).containsEntry("targetPort", "http");

        assertThat(kinds(docs)).doesNotContain(
                "HorizontalPodAutoscaler", "PodDisruptionBudget", "ServiceMonitor", "Ingress");
    }

    // ---------------------------------------------------------------- non-default values

    @Test
    void nonDefaultValuesRenderExistingSecretAndOptionalResources() {
        List<Map<String, Object>> docs = render(template()
                .set("replicaCount", 3)
                .set("database.existingSecret", "my-db")
                .set("database.usernameKey", "user")
                .set("autoscaling.enabled", true)
                .set("podDisruptionBudget.enabled", true)
                .set("serviceMonitor.enabled", true)
                .set("ingress.enabled", true)
                .set("ingress.className", "nginx")
                .set("ingress.hosts[0].host", "verso.test")
                .set("ingress.hosts[0].paths[0].path", "/")
                .set("ingress.tls[0].secretName", "verso-tls")
                .set("ingress.tls[0].hosts[0]", "verso.test"));

        List<Map<String, Object>> env = list(container(deployment(docs)), "env");
        assertThat(secretKeyRef(env, "SPRING_DATASOURCE_USERNAME"))
                .containsEntry("name", "my-db").containsEntry("key", "user");
        assertThat(secretKeyRef(env, "SPRING_DATASOURCE_PASSWORD"))
                .containsEntry("name", "my-db").containsEntry("key", "password");
        assertThat(kinds(docs)).as("no chart-owned Secret next to an existing one").doesNotContain("Secret");

        assertThat(kinds(docs)).contains(
                "Deployment", "Service", "ConfigMap",
                "HorizontalPodAutoscaler", "PodDisruptionBudget", "ServiceMonitor", "Ingress");

        // With the HPA on, the Deployment leaves the replica count to it.
        assertThat(map(deployment(docs), "spec")).doesNotContainKey("replicas");

        Map<String, Object> hpa = single(docs, "HorizontalPodAutoscaler");
        assertThat(hpa).containsEntry("apiVersion", "autoscaling/v2");
        assertThat(map(map(hpa, "spec"), "scaleTargetRef")).containsEntry("kind", "Deployment")
                .containsEntry("name", "verso");
        Map<String, Object> cpu = map(first(map(hpa, "spec"), "metrics"), "resource");
        assertThat(cpu).containsEntry("name", "cpu");

        Map<String, Object> pdb = single(docs, "PodDisruptionBudget");
        assertThat(pdb).containsEntry("apiVersion", "policy/v1");
        assertThat(map(pdb, "spec")).containsEntry("minAvailable", 1);

        Map<String, Object> serviceMonitor = single(docs, "ServiceMonitor");
        assertThat(serviceMonitor).containsEntry("apiVersion", "monitoring.coreos.com/v1");
        assertThat(first(map(serviceMonitor, "spec"), "endpoints"))
                .containsEntry("port", "management").containsEntry("path", "/actuator/prometheus");

        Map<String, Object> ingress = single(docs, "Ingress");
        assertThat(ingress).containsEntry("apiVersion", "networking.k8s.io/v1");
        Map<String, Object> ingressSpec = map(ingress, "spec");
        assertThat(ingressSpec).containsEntry("ingressClassName", "nginx");
        assertThat(first(ingressSpec, "tls")).containsEntry("secretName", "verso-tls");
        Map<String, Object> rule = first(ingressSpec, "rules");
        assertThat(rule).containsEntry("host", "verso.test");
        Map<String, Object> backendService =
                map(map(first(map(rule, "http"), "paths"), "backend"), "service");
        assertThat(backendService).containsEntry("name", "verso");
        assertThat(map(backendService, "port")).containsEntry("number", 80);
    }

    @Test
    void securityIsOnByDefaultAndTakesIssuerAdminKeyAndOrigins() {
        Map<String, Object> data = map(single(render(template()), "ConfigMap"), "data");
        assertThat(data).containsEntry("VERSO_SECURITY_MODE", "on").containsEntry("VERSO_SECURITY_JWT_ROLES_CLAIM", "roles")
                .doesNotContainKeys("VERSO_SECURITY_JWT_ISSUER_URI", "VERSO_SECURITY_CORS_ALLOWED_ORIGINS");

        List<Map<String, Object>> docs = render(template()
                .set("security.jwt.issuerUri", "https://login.example.com/realms/verso")
                .set("security.jwt.audience", "verso")
                .set("security.jwt.rolesClaim", "realm_access.roles")
                .set("security.adminApiKey.existingSecret", "verso-admin")
                .set("security.corsAllowedOrigins[0]", "https://app.example.com")
                .set("security.corsAllowedOrigins[1]", "https://admin.example.com")
                .set("serviceMonitor.enabled", true));
        assertThat(map(single(docs, "ConfigMap"), "data"))
                .containsEntry("VERSO_SECURITY_JWT_ISSUER_URI", "https://login.example.com/realms/verso")
                .containsEntry("VERSO_SECURITY_JWT_AUDIENCE", "verso")
                .containsEntry("VERSO_SECURITY_JWT_ROLES_CLAIM", "realm_access.roles")
                .containsEntry("VERSO_SECURITY_CORS_ALLOWED_ORIGINS", "https://app.example.com,https://admin.example.com");
        assertThat(secretKeyRef(list(container(deployment(docs)), "env"), "VERSO_SECURITY_ADMIN_API_KEY"))
                .containsEntry("name", "verso-admin").containsEntry("key", "admin-api-key");
        Map<String, Object> scrape = first(map(single(docs, "ServiceMonitor"), "spec"), "endpoints");
        assertThat(map(map(scrape, "authorization"), "credentials")).containsEntry("name", "verso-admin");
    }

    @Test
    void replicaCountIsRenderedWhenAutoscalingIsOff() {
        Map<String, Object> deployment = deployment(render(template().set("replicaCount", 3)));
        assertThat(map(deployment, "spec")).containsEntry("replicas", 3);
    }

    @Test
    void extraEnvAndSettingsOverridesLandInTheConfigMap() {
        Map<String, Object> data = map(single(render(template()
                .set("extraEnv.LOGGING_LEVEL_IO_VERSO", "DEBUG")
                .set("config.dbPoolSize", 25)
                .set("config.maxRequestBytes", 4194304)), "ConfigMap"), "data");
        assertThat(data).containsEntry("LOGGING_LEVEL_IO_VERSO", "DEBUG")
                .containsEntry("SPRING_DATASOURCE_HIKARI_MAXIMUM_POOL_SIZE", "25")
                .containsEntry("VERSO_MAX_REQUEST_BYTES", "4194304");
    }

    @Test
    void configMapVariablesBindToTheSettingsTheServiceReads() {
        Map<String, Object> data = map(single(render(template()
                .set("config.statementTimeout", "45s")
                .set("config.maxRequestBytes", 1048576)
                .set("config.dbPoolSize", 7)
                .set("config.graphiqlEnabled", true)
                .set("config.shutdownTimeoutPerPhase", "20s")
                .set("config.logFormat", "logstash")), "ConfigMap"), "data");

        // The service's own application.yml under the rendered variables, bound as Spring Boot binds them.
        Binder binder = binderOver(data);
        VersoProperties verso = binder.bind("verso", VersoProperties.class).get();
        assertThat(verso.statementTimeout()).isEqualTo(Duration.ofSeconds(45));
        assertThat(verso.maxRequestBytes()).isEqualTo(1048576);
        assertThat(binder.bind("spring.datasource.hikari.maximum-pool-size", Integer.class).get()).isEqualTo(7);
        assertThat(binder.bind("spring.graphql.graphiql.enabled", Boolean.class).get()).isTrue();
        assertThat(binder.bind("server.port", Integer.class).get()).isEqualTo(8080);
        assertThat(binder.bind("management.server.port", Integer.class).get()).isEqualTo(8081);
        assertThat(binder.bind("server.shutdown", String.class).get()).isEqualTo("graceful");
        assertThat(binder.bind("spring.lifecycle.timeout-per-shutdown-phase", Duration.class).get())
                .isEqualTo(Duration.ofSeconds(20));
        assertThat(binder.bind("management.endpoint.health.probes.enabled", Boolean.class).get()).isTrue();
        assertThat(binder.bind("logging.structured.format.console", String.class).get()).isEqualTo("logstash");

        // And the chart's defaults override the service's where they differ (GraphiQL off in a cluster).
        Binder defaults = binderOver(map(single(render(template()), "ConfigMap"), "data"));
        assertThat(defaults.bind("spring.graphql.graphiql.enabled", Boolean.class).get()).isFalse();
        assertThat(defaults.bind("spring.datasource.hikari.maximum-pool-size", Integer.class).get()).isEqualTo(20);
    }

    @Test
    void readReplicasReachTheRouterSettingsAndTheirOwnCredentials() {
        String replica1 = "jdbc:postgresql://db-replica-1:5432/verso";
        String replica2 = "jdbc:postgresql://db-replica-2:5432/verso?sslmode=require";
        List<Map<String, Object>> docs = render(template()
                .set("readReplicas.urls[0]", replica1)
                .set("readReplicas.urls[1]", replica2)
                .set("readReplicas.existingSecret", "verso-replica-db")
                .set("readReplicas.maxWait", "250ms")
                .set("readReplicas.poolSize", 4));
        Map<String, Object> data = map(single(docs, "ConfigMap"), "data");
        assertThat(data).containsEntry("VERSO_READ_REPLICAS", replica1 + "," + replica2);

        ReplicaProperties replicas = binderOver(data).bind("verso", ReplicaProperties.class).get();
        assertThat(replicas.urls()).containsExactly(replica1, replica2);
        assertThat(replicas.replica().maxWait()).isEqualTo(Duration.ofMillis(250));
        assertThat(replicas.replica().poolSize()).isEqualTo(4);

        List<Map<String, Object>> env = list(container(deployment(docs)), "env");
        assertThat(secretKeyRef(env, "VERSO_REPLICA_USERNAME")).containsEntry("name", "verso-replica-db")
                .containsEntry("key", "username");
        assertThat(secretKeyRef(env, "VERSO_REPLICA_PASSWORD")).containsEntry("name", "verso-replica-db")
                .containsEntry("key", "password");
    }

    @Test
    void withoutReadReplicasNothingAboutThemIsRendered() {
        List<Map<String, Object>> docs = render(template().set("readReplicas.existingSecret", "ignored"));
        Map<String, Object> data = map(single(docs, "ConfigMap"), "data");
        assertThat(data).doesNotContainKeys("VERSO_READ_REPLICAS", "VERSO_REPLICA_MAX_WAIT", "VERSO_REPLICA_POOL_SIZE");
        List<Map<String, Object>> env = list(container(deployment(docs)), "env");
        assertThat(env).extracting(variable -> (String) variable.get("name"))
                .noneMatch(name -> name.startsWith("VERSO_REPLICA"));
        assertThat(binderOver(data).bind("verso", ReplicaProperties.class).get().urls()).isEmpty();
    }

    @Test
    void emptyLogFormatKeepsPlainTextLogs() {
        Map<String, Object> data = map(single(render(template().set("config.logFormat", "")), "ConfigMap"), "data");
        assertThat(data).doesNotContainKey("LOGGING_STRUCTURED_FORMAT_CONSOLE");
    }

    @Test
    void imageTagOverridesAppVersion() {
        Map<String, Object> container = container(deployment(render(template()
                .set("image.repository", "registry.example/verso")
                .set("image.tag", "1.2.3"))));
        assertThat(container).containsEntry("image", "registry.example/verso:1.2.3");
    }

    // ---------------------------------------------------------------- failure

    @Test
    void templateWithoutDatabaseUrlFailsNamingTheValue() {
        TemplateCommand withoutUrl = new Helm(CHART).template().withName(RELEASE);
        assertThatThrownBy(withoutUrl::call).hasMessageContaining("database.url");
    }

    // ---------------------------------------------------------------- helpers

    /**
     * A binder over the service's application.yml with {@code variables} as the process environment (and nothing
     * of this machine's environment), so relaxed env-var binding and ${...} placeholders work as at run time.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Binder binderOver(Map<String, Object> variables) {
        StandardEnvironment environment = new StandardEnvironment();
        MutablePropertySources sources = environment.getPropertySources();
        sources.remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
        sources.remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
        sources.addFirst(new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                (Map) variables));
        try {
            for (PropertySource<?> yaml : new YamlPropertySourceLoader().load("application.yml",
                    new ClassPathResource("application.yml"))) {
                sources.addLast(yaml);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ConfigurationPropertySources.attach(environment);
        return Binder.get(environment);
    }

    /** A template command for release "verso" with the one required value set. */
    private static TemplateCommand template() {
        return new Helm(CHART).template().withName(RELEASE).set("database.url", DB_URL);
    }

    /** Renders and parses the multi-document output; empty documents are dropped. */
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> render(TemplateCommand command) {
        String rendered = command.call();
        List<Map<String, Object>> docs = new ArrayList<>();
        for (Object doc : new Yaml().loadAll(rendered)) {
            if (doc != null) {
                assertThat(doc).as("rendered document").isInstanceOf(Map.class);
                docs.add((Map<String, Object>) doc);
            }
        }
        assertThat(docs).as("rendered documents").isNotEmpty();
        return docs;
    }

    private static List<String> kinds(List<Map<String, Object>> docs) {
        return docs.stream().map(doc -> (String) doc.get("kind")).toList();
    }

    private static Map<String, Object> single(List<Map<String, Object>> docs, String kind) {
        List<Map<String, Object>> matching = docs.stream().filter(doc -> kind.equals(doc.get("kind"))).toList();
        assertThat(matching).as("documents of kind " + kind).hasSize(1);
        return matching.get(0);
    }

    private static Map<String, Object> deployment(List<Map<String, Object>> docs) {
        Map<String, Object> deployment = single(docs, "Deployment");
        assertThat(map(deployment, "metadata")).containsEntry("name", "verso");
        return deployment;
    }

    private static Map<String, Object> podSpec(Map<String, Object> deployment) {
        return map(map(map(deployment, "spec"), "template"), "spec");
    }

    private static Map<String, Object> container(Map<String, Object> deployment) {
        List<Map<String, Object>> containers = list(podSpec(deployment), "containers");
        assertThat(containers).hasSize(1);
        return containers.get(0);
    }

    private static String probePath(Map<String, Object> container, String probe) {
        return (String) map(map(container, probe), "httpGet").get("path");
    }

    private static Map<String, Object> secretKeyRef(List<Map<String, Object>> env, String name) {
        return map(map(findByName(env, name), "valueFrom"), "secretKeyRef");
    }

    private static Map<String, Object> findByName(List<Map<String, Object>> items, String name) {
        return items.stream().filter(item -> name.equals(item.get("name"))).findFirst()
                .orElseThrow(() -> new AssertionError("no entry named " + name + " in " + items));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Map<String, Object> parent, String key) {
        Object value = parent.get(key);
        assertThat(value).as("'%s' in %s", key, parent.keySet()).isInstanceOf(Map.class);
        return (Map<String, Object>) value;
    }

    private static Map<String, Object> first(Map<String, Object> parent, String key) {
        List<Map<String, Object>> items = list(parent, key);
        assertThat(items).as("'%s'", key).isNotEmpty();
        return items.get(0);
    }

    @SuppressWarnings("unchecked")
    private static <T> List<T> list(Map<String, Object> parent, String key) {
        Object value = parent.get(key);
        assertThat(value).as("'%s' in %s", key, parent.keySet()).isInstanceOf(List.class);
        return (List<T>) value;
    }

    /**
     * Walks values.yaml: every key whose value is a scalar, a list, or an empty map must carry a comment line above it.
     * Non-empty maps are groups; their children are checked instead. Entries inside lists are examples, not values.
     */
    private static void collectUndocumented(MappingNode mapping, String prefix, List<String> undocumented) {
        for (NodeTuple tuple : mapping.getValue()) {
            String key = prefix + ((ScalarNode) tuple.getKeyNode()).getValue();
            Node value = tuple.getValueNode();
            if (value instanceof MappingNode child && !child.getValue().isEmpty()) {
                collectUndocumented(child, key + ".", undocumented);
                continue;
            }
            // Scalars, lists and empty maps are values: each needs a non-blank comment line above its key.
            boolean documented = tuple.getKeyNode().getBlockComments() != null
                    && tuple.getKeyNode().getBlockComments().stream()
                            .anyMatch(line -> !line.getValue().isBlank());
            if (!documented) {
                undocumented.add(key);
            }
        }
    }

    private static Path copyChart(Path target) throws IOException {
        try (Stream<Path> files = Files.walk(CHART)) {
            for (Path source : (Iterable<Path>) files::iterator) {
                Path destination = target.resolve(CHART.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(destination);
                } else {
                    Files.copy(source, destination);
                }
            }
        }
        return target;
    }
}
