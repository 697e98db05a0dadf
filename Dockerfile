# Runtime image for Verso, built from the Spring Boot layered jar that Maven produced outside the image:
#
#   mvn -B -DskipTests package
#   docker build -t verso:0.1.0 .        (or: podman build -t verso:0.1.0 .)
#
# No Maven or JDK build stage: the first stage only splits the finished jar into its layers with
# Spring Boot's tools jarmode, so each layer becomes its own image layer below. Dependencies change
# rarely and stay cached; a code change only rebuilds the small "application" layer.

FROM eclipse-temurin:25-jre AS layers
WORKDIR /layers
# Path of the executable jar in the build context (see .dockerignore, which admits only target/*.jar).
ARG JAR_FILE=target/verso-0.1.0-SNAPSHOT.jar
COPY ${JAR_FILE} app.jar
# Spring Boot 4 tools jarmode: --layers writes one directory per layer (dependencies, spring-boot-loader,
# snapshot-dependencies, application); --launcher keeps the classic layout started by JarLauncher.
RUN java -Djarmode=tools -jar app.jar extract --layers --launcher --destination extracted

FROM eclipse-temurin:25-jre
WORKDIR /application
# Least to most frequently changing; files stay root-owned and read-only for the runtime user.
COPY --from=layers /layers/extracted/dependencies/ ./
COPY --from=layers /layers/extracted/spring-boot-loader/ ./
COPY --from=layers /layers/extracted/snapshot-dependencies/ ./
COPY --from=layers /layers/extracted/application/ ./
# Numeric non-root user (no passwd entry needed) so Kubernetes runAsNonRoot can verify it; the Helm
# chart runs the pod as the same UID with a read-only root filesystem and an emptyDir at /tmp.
USER 1000:1000
EXPOSE 8080
# An OutOfMemoryError ends the process (the orchestrator restarts it) instead of leaving it half alive.
ENTRYPOINT ["java", "-XX:+ExitOnOutOfMemoryError", "org.springframework.boot.loader.launch.JarLauncher"]
