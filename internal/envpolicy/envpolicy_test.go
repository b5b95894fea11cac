package envpolicy

import "testing"

func TestNeverPassed(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"GITHUB_TOKEN", true},
		{"github_token", true},
		{"ACTIONS_RUNTIME_TOKEN", true},
		{"ACTIONS_ID_TOKEN_REQUEST_URL", true},
		{"ACTIONS_CACHE_URL", true},
		{"INPUT_PATHS", true},
		{"INPUT_", true},
		{"GITHUB_OUTPUT", true},
		{"GITHUB_ENV", true},
		{"GITHUB_PATH", true},
		{"GITHUB_STEP_SUMMARY", true},
		{"GITHUB_STATE", true},
		{"GITHUB_WORKSPACE", false},
		{"GITHUB_EVENT_NAME", false},
		{"GITHUB_OUTPUTS", false},
		{"MY_ACTIONS_X", false},
		{"ACTIONS", false},
		{"NPM_TOKEN", false}, // a credential, but pass-env may re-admit it
		{"PATH", false},
	}
	for _, tt := range tests {
		if got := NeverPassed(tt.name); got != tt.want {
			t.Errorf("NeverPassed(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestEnvGitConfigUnit(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"GIT_CONFIG_COUNT", true},
		{"GIT_CONFIG_PARAMETERS", true},
		{"GIT_CONFIG_KEY_0", true},
		{"GIT_CONFIG_VALUE_0", true},
		{"GIT_CONFIG_KEY_12", true},
		{"git_config_value_3", true},
		{"GIT_CONFIG_KEY_", false},
		{"GIT_CONFIG_KEY_x", false},
		{"GIT_CONFIG_VALUE_1x", false},
		{"GIT_CONFIG", false},
		{"GIT_CONFIG_GLOBAL", false},
		{"GIT_CONFIG_SYSTEM", false},
		{"GIT_CONFIG_NOSYSTEM", false},
		{"MY_GIT_CONFIG_COUNT", false},
	}
	for _, tt := range tests {
		if got := GitConfigUnit(tt.name); got != tt.want {
			t.Errorf("GitConfigUnit(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestWithheld(t *testing.T) {
	for name, want := range map[string]bool{
		"GITHUB_TOKEN": true, "ACTIONS_RUNTIME_URL": true, "INPUT_PATHS": true, "GITHUB_OUTPUT": true,
		"NPM_TOKEN": true, "my_api_key": true, "GIT_AUTHOR_NAME": true,
		"GIT_CONFIG_COUNT": true, "GIT_CONFIG_VALUE_0": true, "GIT_CONFIG_PARAMETERS": true,
		"PATH": false, "HOME": false, "GITHUB_WORKSPACE": false, "GIT_CONFIG_GLOBAL": false, "EVALGATE_RUN": false,
	} {
		if got := Withheld(name); got != want {
			t.Errorf("Withheld(%q) = %v, want %v", name, got, want)
		}
	}
}
