"""The HTML side of Muster: the pages by feature (home, share, editor, changes, deletion, the
print sheet, the calculators), over what every page shares (pages.py); templates, language,
cookies and the editor's form handling."""
