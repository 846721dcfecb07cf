"""The evaluation view and its parts: the threshold and the pages (view), the classifier's
matrices and curves (classification_page, confusion_tables), the regression's residuals
(fit_page) and the cross-validation row."""
