"""The HTML side of Muster: templates, language, cookies and the editor's form handling."""
