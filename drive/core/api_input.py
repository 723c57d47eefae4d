"""The API's reading of a request body: one serializer, 400 with field messages if wrong."""


def valid_data(serializer_class, request, **kwargs):
    serializer = serializer_class(data=request.data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def valid_query(serializer_class, request, **kwargs):
    """The same for a query string (?round=2): 400 with the parameter's message if wrong."""
    serializer = serializer_class(data=request.query_params, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
