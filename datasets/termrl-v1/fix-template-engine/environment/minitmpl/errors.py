class TemplateError(Exception):
    pass
