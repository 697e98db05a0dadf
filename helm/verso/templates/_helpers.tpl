{{/*
Chart name, overridable with nameOverride.
*/}}
{{- define "verso.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Fully qualified app name, used as the prefix of every resource name.
Truncated to 63 characters (DNS name limit); the release name is used alone when it already contains the chart name.
*/}}
{{- define "verso.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Chart name and version, for the helm.sh/chart label.
*/}}
{{- define "verso.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Common labels.
*/}}
{{- define "verso.labels" -}}
helm.sh/chart: {{ include "verso.chart" . }}
{{ include "verso.selectorLabels" . }}
app.kubernetes.io/version: {{ (default .Chart.AppVersion .Values.image.tag) | trunc 63 | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/*
Selector labels (stable across upgrades: never add version-dependent labels here).
*/}}
{{- define "verso.selectorLabels" -}}
app.kubernetes.io/name: {{ include "verso.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/*
Name of the ServiceAccount to use.
*/}}
{{- define "verso.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "verso.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/*
Image reference; the tag defaults to the chart's appVersion.
*/}}
{{- define "verso.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag | toString) }}
{{- end }}

{{/*
Name of the Secret holding the database credentials: the existing one, or the chart-owned one.
*/}}
{{- define "verso.databaseSecretName" -}}
{{- if .Values.database.existingSecret }}
{{- .Values.database.existingSecret }}
{{- else }}
{{- printf "%s-db" (include "verso.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{/*
Keys of the user name and password inside the database Secret.
The chart-owned Secret always uses "username" and "password".
*/}}
{{- define "verso.databaseUsernameKey" -}}
{{- if .Values.database.existingSecret }}{{ .Values.database.usernameKey | default "username" }}{{ else }}username{{ end }}
{{- end }}

{{- define "verso.databasePasswordKey" -}}
{{- if .Values.database.existingSecret }}{{ .Values.database.passwordKey | default "password" }}{{ else }}password{{ end }}
{{- end }}

{{/*
The JDBC URL; rendering fails with a clear message when it is not set.
*/}}
{{- define "verso.databaseUrl" -}}
{{- required "database.url is required: set it to the JDBC URL of the PostgreSQL database, e.g. --set database.url=jdbc:postgresql://host:5432/verso" .Values.database.url }}
{{- end }}

{{/*
The port Actuator answers on: "management" when managementPort is set, else the API's "http".
*/}}
{{- define "verso.managementPortName" -}}
{{- if gt (int .Values.managementPort) 0 }}management{{ else }}http{{ end }}
{{- end }}
