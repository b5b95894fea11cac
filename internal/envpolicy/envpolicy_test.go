package envpolicy

import "testing"

// TestNamePredicates: each of the policy's predicates on the variable names it
// must match and on near misses it must not.
func TestNamePredicates(t *testing.T) {
	tests := []struct {
		name    string
		is      func(string) bool
		yes, no []string
	}{
		{
			"NeverPassed", NeverPassed,
			[]string{
				"GITHUB_TOKEN", "github_token", "ACTIONS_RUNTIME_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_URL",
				"ACTIONS_CACHE_URL", "INPUT_PATHS", "INPUT_", "GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH",
				"GITHUB_STEP_SUMMARY", "GITHUB_STATE",
			},
			[]string{
				"GITHUB_WORKSPACE", "GITHUB_EVENT_NAME", "GITHUB_OUTPUTS", "MY_ACTIONS_X", "ACTIONS",
				"NPM_TOKEN", // a credential, but pass-env may re-admit it
				"PATH",
			},
		},
		{
			"GitConfigUnit", GitConfigUnit,
			[]string{
				"GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_KEY_0", "GIT_CONFIG_VALUE_0",
				"GIT_CONFIG_KEY_12", "git_config_value_3",
			},
			[]string{
				"GIT_CONFIG_KEY_", "GIT_CONFIG_KEY_x", "GIT_CONFIG_VALUE_1x", "GIT_CONFIG", "GIT_CONFIG_GLOBAL",
				"GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM", "MY_GIT_CONFIG_COUNT",
			},
		},
		{
			"Withheld", Withheld,
			[]string{
				"GITHUB_TOKEN", "ACTIONS_RUNTIME_URL", "INPUT_PATHS", "GITHUB_OUTPUT", "NPM_TOKEN", "my_api_key",
				"GIT_AUTHOR_NAME", "GIT_CONFIG_COUNT", "GIT_CONFIG_VALUE_0", "GIT_CONFIG_PARAMETERS",
			},
			[]string{"PATH", "HOME", "GITHUB_WORKSPACE", "GIT_CONFIG_GLOBAL", "EVALGATE_RUN"},
		},
	}
	for _, tt := range tests {
		for _, want := range []bool{true, false} {
			names := tt.yes
			if !want {
				names = tt.no
			}
			for _, name := range names {
				if got := tt.is(name); got != want {
					t.Errorf("%s(%q) = %v, want %v", tt.name, name, got, want)
				}
			}
		}
	}
}
