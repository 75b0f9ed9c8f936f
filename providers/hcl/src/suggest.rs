//! Did-you-mean suggestions for misspelled names (HCL's `nameSuggestion`). A leaf module:
//! the evaluator, body decoding and the JSON parser all use it, and it uses none of them.

/// HCL's `nameSuggestion`: the first candidate (in the order given) within edit distance 2.
pub fn name_suggestion<S: AsRef<str>>(given: &str, candidates: &[S]) -> Option<String> {
    candidates
        .iter()
        .map(AsRef::as_ref)
        .find(|c| strsim::levenshtein(given, c) < 3)
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levenshtein_distances() {
        assert_eq!(strsim::levenshtein("kitten", "sitting"), 3);
        assert_eq!(strsim::levenshtein("", "abc"), 3);
        assert_eq!(strsim::levenshtein("upper", "uper"), 1);
    }

    #[test]
    fn suggestions_pick_close_names() {
        let names = vec!["lower".to_string(), "upper".to_string()];
        assert_eq!(name_suggestion("uper", &names).as_deref(), Some("upper"));
        assert_eq!(name_suggestion("xyzzy", &names), None);
        assert_eq!(
            name_suggestion("ture", &["false", "true", "null"]).as_deref(),
            Some("true")
        );
    }
}
